import Foundation
import RouteRankerCore
import RouteRankerModels
import RouteRankerStorage
import Testing

/// Packed doubles are 8 little-endian bytes each and read back bit for bit.
@Suite struct PackedDoublesTests {
    @Test func bytesAreLittleEndianIEEE754() {
        #expect(PackedDoubles.bytes([1.0, -2.0]) == [0, 0, 0, 0, 0, 0, 0xF0, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0xC0])
        #expect(PackedDoubles.bytes([Double]()).isEmpty)
    }

    @Test func everyBitPatternReadsBack() throws {
        let values: [Double] = [
            0, -0.0, .leastNonzeroMagnitude, -.leastNormalMagnitude, .greatestFiniteMagnitude, .infinity,
            -.infinity, Double(bitPattern: 0x7FF8_0000_0000_0001), .nan, 52.520_008_1, 1_763_800_000.123,
        ]
        let back = try #require(PackedDoubles.doubles(PackedDoubles.bytes(values)))
        #expect(back.map(\.bitPattern) == values.map(\.bitPattern))
        #expect(PackedDoubles.doubles([1, 2, 3]) == nil)
    }
}

/// A tail extended packed is the tail packed whole, whatever the split.
@Suite struct PackedTailTests {
    @Test func appendingPackedIsPackingWhole() throws {
        let points: [TrackPoint] = (0..<40).map { (i: Int) -> TrackPoint in
            let x = Double(i)
            let ele: Double? = i % 3 == 0 ? nil : x
            let acc: Double? = i % 5 == 0 ? 4.5 : nil
            return TrackPoint(lat: 52.5 + x * 1e-5, lon: 13.4, t: 1_763_800_000 + x, ele: ele, acc: acc)
        }
        for split in [0, 1, 17, 39, 40] {
            var tail = PackedTail(Array(points[..<split]))
            tail.append(Array(points[split...]))
            #expect(tail == PackedTail(points), "split at \(split)")
            #expect(tail.points == points)
            #expect(tail.count == points.count)
        }
        var empty = PackedTail()
        empty.append([])
        #expect(empty == PackedTail())
    }
}
