import Testing

@testable import Mongo

/// How the errors of unordered bulk writes (`insertEach`, `updateEach`) are told apart.
@Suite struct BulkWriteErrorTests {
    /// An error for a whole write of several statements never says "duplicate key", which a
    /// caller of a bulk insert (`insertEach`) takes for "stored already"; other errors pass unchanged.
    @Test func aWholeWritesErrorIsNeverADuplicateKey() {
        let duplicate = MongoError.duplicateKey(message: "E11000 on d1")
        guard case .other(let code, _, _) = duplicate.forWholeWrite else {
            Issue.record("\(duplicate.forWholeWrite)")
            return
        }
        #expect(code == 11000)
        #expect(MongoError.unavailable(message: "x").forWholeWrite == .unavailable(message: "x"))
        #expect(MongoError(writeError: ["code": 11000, "errmsg": "E11000"]) == .duplicateKey(message: "E11000"))
        #expect(
            MongoError(writeError: ["code": 91, "errmsg": "shutting down"]) == .unavailable(message: "shutting down"))
    }
}
