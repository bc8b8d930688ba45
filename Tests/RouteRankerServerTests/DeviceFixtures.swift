import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RouteRankerModels
import RouteRankerServer
import Synchronization
import Testing

/// A device as a test made it: its id, key and owner.
/// (`json` is read-only after creation.)
struct TestDevice: @unchecked Sendable {
    var id: String
    var key: String
    var owner: String
    var json: JSONObject
}

extension TestClientProtocol {
    /// Creates a device for `owner` with the JSON members given (`name` is set unless given).
    func createDevice(
        _ token: String, owner: String, _ members: String = #""name":"Phone""#
    ) async throws -> TestDevice {
        let response = try await send(.post, "/v1/devices", token: token, json: "{\(members)}")
        guard response.status == .created, let id = response.json["id"] as? String,
            let key = response.json["key"] as? String
        else { throw TestFailure("creating a device gave \(response.status): \(response.text)") }
        return TestDevice(id: id, key: key, owner: owner, json: response.json)
    }

    /// Posts one OwnTracks message with the device's Basic credentials.
    func ownTracks(_ device: TestDevice, _ body: String, user: String? = nil) async throws -> TestResponse {
        let credentials = Data("\(user ?? device.owner):\(device.key)".utf8).base64EncodedString()
        return try await execute(
            uri: "/v1/track/owntracks", method: .post,
            headers: [.authorization: "Basic \(credentials)", .contentType: "application/json; charset=utf-8"],
            body: ByteBuffer(string: body))
    }

    /// Posts an OwnTracks location.
    func ownTracksPoint(
        _ device: TestDevice, lat: Double, lon: Double, tst: Double, acc: Double? = nil
    ) async throws -> TestResponse {
        let accuracy = acc.map { #","acc":\#($0)"# } ?? ""
        return try await ownTracks(
            device, #"{"_type":"location","lat":\#(lat),"lon":\#(lon),"tst":\#(tst),"tid":"ph"\#(accuracy)}"#)
    }

    /// `GET /v1/devices/{id}` as JSON.
    func device(_ token: String, _ id: String) async throws -> JSONObject {
        let response = try await send(.get, "/v1/devices/\(id)", token: token)
        guard response.status == .ok else { throw TestFailure("GET device gave \(response.status)") }
        return response.json
    }

    /// The device's counts.
    func counts(_ token: String, _ id: String) async throws -> [String: Int] {
        (try await device(token, id)["counts"] as? [String: Int]) ?? [:]
    }

    /// The owner's routes, as summaries.
    func routes(_ token: String) async throws -> [JSONObject] {
        let response = try await send(.get, "/v1/routes?limit=200", token: token)
        return response.json["items"] as? [JSONObject] ?? []
    }
}

/// Points walking east from a start, 10 m apart, `dt` seconds apart.
enum Walk {
    static let lat = 52.52
    static let lon = 13.405
    /// Degrees of longitude per metre at `lat`.
    static let lonPerMetre = 1 / (111_320 * cos(lat * .pi / 180))

    static func lon(metres: Double) -> Double { lon + metres * lonPerMetre }
}
