/// Text written piece by piece into a small buffer on the stack and appended to an array in one
/// copy (``append(to:_:)``).
///
/// A downloaded point is a dozen small pieces (keys, numbers, punctuation); a dozen
/// `append(contentsOf:)` calls on a growing array, each checking uniqueness and capacity, cost as
/// much as the numbers' digits.
struct GatheredBytes {
    /// The buffer's size. `withUnsafeTemporaryAllocation` keeps up to 1024 bytes on the stack
    /// without asking; above that, on Linux, it may take them from the heap for every call. A point
    /// whose numbers take the fixed-point path needs about 130 bytes; one whose numbers do not (a
    /// `Double`'s positional text can be 327 bytes long) spills into the array as it goes.
    static let capacity = 512

    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private let out: UnsafeMutablePointer<[UInt8]>
    private var count = 0

    private init(buffer: UnsafeMutableBufferPointer<UInt8>, out: UnsafeMutablePointer<[UInt8]>) {
        self.buffer = buffer
        self.out = out
    }

    /// Runs `body` with an empty buffer, then appends what it wrote to `out`.
    static func append(to out: inout [UInt8], _ body: (inout GatheredBytes) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            withUnsafeMutablePointer(to: &out) { out in
                var gathered = GatheredBytes(buffer: buffer, out: out)
                body(&gathered)
                gathered.flush()
            }
        }
    }

    /// Writes the UTF-8 bytes of a literal.
    mutating func put(_ literal: StaticString) {
        literal.withUTF8Buffer { put($0) }
    }

    /// Writes `bytes`.
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        guard makeRoom(bytes.count) else { return out.pointee.append(contentsOf: bytes) }
        UnsafeMutableRawPointer(buffer.baseAddress! + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Writes one byte.
    mutating func put(_ byte: UInt8) {
        _ = makeRoom(1)  // always fits in the emptied buffer
        buffer[count] = byte
        count += 1
    }

    /// Writes ``DecimalNumbers/format(_:)`` of `x`: the fixed-point digits in place, any other
    /// number through its text.
    mutating func put(number x: Double) {
        guard x.isFinite else { return put("null") }
        if let fixed = DecimalNumbers.FixedPoint(x) {
            _ = makeRoom(DecimalNumbers.FixedPoint.maxLength)  // always fits in the emptied buffer
            count = fixed.write(into: buffer, at: count)
        } else {
            var text = DecimalNumbers.general(x)
            text.withUTF8 { put($0) }
        }
    }

    /// Makes room for `n` more bytes in the buffer, moving what it holds to the array if need be;
    /// false when `n` bytes do not fit even in an empty buffer (the buffer is then empty).
    private mutating func makeRoom(_ n: Int) -> Bool {
        if count + n <= buffer.count { return true }
        flush()
        return n <= buffer.count
    }

    /// Moves what the buffer holds to the array.
    private mutating func flush() {
        out.pointee.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
        count = 0
    }
}
