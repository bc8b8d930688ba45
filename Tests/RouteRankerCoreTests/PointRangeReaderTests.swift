import Foundation
import Testing

@testable import RouteRankerCore

/// `ele` and `acc` ranges (API.md "Limits and hostile input") in the readers the server tests
/// cannot easily feed: a FIT file's `enhanced_altitude` reaches 858,993 km, so a record past
/// 100 km is a point error with its index, as a JSON point's would be; FIT's "invalid" marker is
/// still an absent elevation. And the tracker apps' values, which never refuse the message.
@Suite struct PointRangeReaderTests {
    /// A FIT activity file of records (timestamp, lat, lon, enhanced_altitude raw; nil is FIT's
    /// invalid value 0xFFFFFFFF), little-endian, with both CRCs.
    static func fit(_ altitudes: [UInt32?]) -> Data {
        var body: [UInt8] = []
        func le<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { body += $0 } }
        // file_id (global 0): type = 4 (activity).
        body += [0x40, 0, 0]
        le(UInt16(0))
        body += [1, 0, 1, 0x00]
        body += [0, 4]
        // record (global 20): timestamp (253, uint32), lat (0, sint32), lon (1, sint32),
        // enhanced_altitude (78, uint32).
        body += [0x41, 0, 0]
        le(UInt16(20))
        body += [4, 253, 4, 0x86, 0, 4, 0x85, 1, 4, 0x85, 78, 4, 0x86]
        for (i, altitude) in altitudes.enumerated() {
            body.append(1)
            le(UInt32(1_000_000_000 + 10 * i))
            le(Int32((48.2 + Double(i) * 1e-4) * 2_147_483_648 / 180))
            le(Int32(16.37 * 2_147_483_648 / 180))
            le(altitude ?? 0xFFFF_FFFF)
        }
        var header: [UInt8] = [14, 0x20]
        withUnsafeBytes(of: UInt16(2195).littleEndian) { header += $0 }
        withUnsafeBytes(of: UInt32(body.count).littleEndian) { header += $0 }
        header += Array(".FIT".utf8)
        let headerCRC = header.withUnsafeBytes { FITCRC.update(0, $0) }
        withUnsafeBytes(of: headerCRC.littleEndian) { header += $0 }
        let whole = header + body
        let crc = whole.withUnsafeBytes { FITCRC.update(0, $0) }
        var file = whole
        withUnsafeBytes(of: crc.littleEndian) { file += $0 }
        return Data(file)
    }

    /// Raw `enhanced_altitude` of `metres` (scale 5, offset 500).
    static func raw(_ metres: Double) -> UInt32 { UInt32((metres + 500) * 5) }

    @Test func aFITElevationPast100KilometresIsAPointErrorWithItsIndex() throws {
        let good = try FITReader.read(Self.fit([Self.raw(100), Self.raw(100_000), nil]))
        #expect(good.points.map(\.ele) == [100, 100_000, nil])
        for metres in [100_000.2, 200_000, 858_000_000] {
            let error = try #require(throws: FormatError.self) {
                try FITReader.read(Self.fit([Self.raw(10), Self.raw(metres)]))
            }
            #expect(error.index == 1 && error.key == "ele", "\(metres): \(error)")
        }
    }

    @Test func theRangesAndTheirEnds() throws {
        func check(ele: Double?, acc: Double?) -> String? {
            do {
                _ = try PointValidation.point(lat: 1, lon: 2, t: 3, ele: ele, acc: acc, index: 0)
                return nil
            } catch let error as FormatError {
                return error.key
            } catch {
                return "?"
            }
        }
        for ele in [-12_000, 0, 100_000, nil] as [Double?] { #expect(check(ele: ele, acc: nil) == nil) }
        for acc in [0, 5, 1_000_000, nil] as [Double?] { #expect(check(ele: nil, acc: acc) == nil) }
        for ele in [-12_000.001, 100_000.001, 1e300, -1e300, .infinity, .nan, .greatestFiniteMagnitude] {
            #expect(check(ele: ele, acc: nil) == "ele", "\(ele)")
        }
        for acc in [-0.001, 1_000_000.001, .infinity, .nan, -.infinity] {
            #expect(check(ele: nil, acc: acc) == "acc", "\(acc)")
        }
    }

    /// The tracker apps: an elevation out of range is left out, an accuracy past 1,000 km makes
    /// the point unusable (dropped), a negative or NaN accuracy is left out; all answered `200`.
    @Test func trackerValuesOutOfRangeNeverReachAPoint() {
        let p = { (ele: Double?, acc: Double?) in TrackerReport.location(lat: 1, lon: 2, t: 3, ele: ele, acc: acc) }
        #expect(p(1e300, nil) == .point(TrackPoint(lat: 1, lon: 2, t: 3)))
        #expect(p(-1e300, 5) == .point(TrackPoint(lat: 1, lon: 2, t: 3, acc: 5)))
        #expect(p(100_000, 1_000_000) == .point(TrackPoint(lat: 1, lon: 2, t: 3, ele: 100_000, acc: 1_000_000)))
        #expect(p(nil, 1_000_001) == .unusable)
        #expect(p(nil, .infinity) == .unusable)
        #expect(p(nil, -1) == .point(TrackPoint(lat: 1, lon: 2, t: 3)))
        #expect(p(nil, .nan) == .point(TrackPoint(lat: 1, lon: 2, t: 3)))
    }
}
