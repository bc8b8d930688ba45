// The ceiling for scripts/bench-ingest: the same 1000-point buckets the server writes, inserted
// straight through the Mongo wrapper (libmongoc) with the same write concern, from `--writers`
// concurrent tasks. Prints one JSON line: {"points","seconds","points_per_s"}.
//
// The bucket layout mirrors RouteRankerServer's PointBuckets (parallel arrays t/lat/lon/ele/acc);
// it is restated here because the server keeps that type internal.
import Foundation
import Logging
import Mongo

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: String) -> String {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return fallback }
    return arguments[index + 1]
}

let uri = option("--mongodb-uri", ProcessInfo.processInfo.environment["MONGODB_URI"] ?? "mongodb://127.0.0.1:27017/")
let points = Int(option("--points", "200000"))!
let writers = Int(option("--writers", "1"))!
let perBucket = 1000

let client = try MongoClient(uri: uri, logger: Logger(label: "bench"))
let database = MongoDatabase(client: client, name: "bench_buckets_\(UUID().uuidString.prefix(8))")
let collection = database.collection("points")
try await collection.createIndexes([MongoIndex(keys: ["route": 1, "seq": 1], unique: true)])

func bucket(route: String, seq: Int) -> BSONDocument {
    var t: [BSONValue] = [], lat: [BSONValue] = [], lon: [BSONValue] = [], ele: [BSONValue] = []
    var acc: [BSONValue] = []
    for i in 0..<perBucket {
        let n = Double(seq * perBucket + i)
        t.append(.double(1_700_000_000 + n))
        lat.append(.double(52.52 + n * 2.7e-5))
        lon.append(.double(13.40 + n * 1.1e-5))
        ele.append(.double(40 + (n / 300).truncatingRemainder(dividingBy: 10)))
        acc.append(.null)
    }
    return [
        "_id": .string("\(route):\(seq)"), "route": .string(route), "seq": .int(seq), "n": .int(perBucket),
        "t": .array(t), "lat": .array(lat), "lon": .array(lon), "ele": .array(ele), "acc": .array(acc),
    ]
}

let buckets = points / perBucket
let route = BSONObjectID().hex
let start = ContinuousClock.now
try await withThrowingTaskGroup(of: Void.self) { group in
    for writer in 0..<writers {
        group.addTask {
            for seq in stride(from: writer, to: buckets, by: writers) {
                try await collection.insertOne(bucket(route: route, seq: seq))
            }
        }
    }
    try await group.waitForAll()
}
let elapsed = ContinuousClock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
try await database.drop()
client.shutdown()
print(
    #"{"points":\#(buckets * perBucket),"seconds":\#(seconds),"points_per_s":\#(Double(buckets * perBucket) / seconds)}"#
)
