/// Text written piece by piece into a fixed buffer on the stack, then appended to an array in one
/// copy (``append(to:capacity:_:)``).
///
/// A downloaded point is a dozen small pieces (keys, numbers, punctuation); a dozen
/// `append(contentsOf:)` calls on a growing array, each checking uniqueness and capacity, cost as
/// much as the numbers' digits.
struct GatheredBytes {
    /// Room for one track point in any writer. The longest positional text of a finite `Double` is
    /// 328 bytes (`-0.`, 322 zeros and the digits of the smallest subnormal); a point has at most
    /// five numbers, so their text and keys stay well under this.
    static let pointCapacity = 2048

    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// The bytes written so far.
    private(set) var count = 0

    private init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// Runs `body` with an empty buffer of `capacity` bytes, then appends what it wrote to `out`.
    static func append(
        to out: inout [UInt8], capacity: Int = pointCapacity, _ body: (inout GatheredBytes) -> Void
    ) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var gathered = GatheredBytes(buffer: buffer)
            body(&gathered)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<gathered.count]))
        }
    }

    /// Writes the UTF-8 bytes of a literal.
    mutating func put(_ literal: StaticString) {
        literal.withUTF8Buffer { put($0) }
    }

    /// Writes `bytes`.
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        precondition(count + bytes.count <= buffer.count, "GatheredBytes: capacity exceeded")
        UnsafeMutableRawPointer(buffer.baseAddress! + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Writes one byte.
    mutating func put(_ byte: UInt8) {
        precondition(count < buffer.count, "GatheredBytes: capacity exceeded")
        buffer[count] = byte
        count += 1
    }

    /// Writes ``DecimalNumbers/format(_:)`` of `x`: the fixed-point digits in place, any other
    /// number through its text.
    mutating func put(number x: Double) {
        guard x.isFinite else { return put("null") }
        if let fixed = DecimalNumbers.FixedPoint(x) {
            count = fixed.write(into: buffer, at: count)
        } else {
            var text = DecimalNumbers.general(x)
            text.withUTF8 { put($0) }
        }
    }
}
