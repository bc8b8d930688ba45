import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RouteRankerServer
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `POST /v1/devices/{id}/qr.svg`: the setup QR code of each app, drawn for the owner who sends
/// the device's current key in the body; read back with zbarimg, its settings work.
@Suite struct DeviceQRTests {
    /// The QR code's text, as zbarimg reads it from the SVG's path.
    static func scanned(_ response: TestResponse) throws -> String {
        let parsed = try ParsedSVG(response.text)
        let path = try #require(parsed.elements("path", class: "modules").first)
        return try QRScan.text(of: QRScan.modules(ofPath: ParsedSVG.attribute(path, "d") ?? ""))
    }

    static func qr(_ client: any TestClientProtocol, _ token: String?, _ id: String, _ body: String) async throws
        -> TestResponse
    {
        try await client.send(.post, "/v1/devices/\(id)/qr.svg", token: token, json: body)
    }

    @Test func eachAppsCodeHoldsItsWorkingSettings() async throws {
        try await withApp { client in
            let token = try await client.register("ada")
            let device = try await client.createDevice(token, owner: "ada", #""name":"Pixel <7>""#)
            let ingest = try #require(device.json["ingest"] as? [String: String])
            var texts: [String: String] = [:]
            for app in ["owntracks", "osmand", "gpslogger"] {
                let response = try await Self.qr(client, token, device.id, #"{"app":"\#(app)","key":"\#(device.key)"}"#)
                #expect(response.status == .ok, "\(app): \(response.text)")
                #expect(response.headers[.contentType] == "image/svg+xml; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-store")
                let parsed = try ParsedSVG(response.text)
                #expect(parsed.title?.hasSuffix("settings for Pixel <7>") == true, "\(parsed.title ?? "")")
                #expect(parsed.title?.contains(device.key) == false)
                #expect(parsed.elements("path", class: "modules").count == 1)
                texts[app] = try Self.scanned(response)
            }
            // Traccar Client: the server URL, and the key as the device identifier.
            #expect(texts["osmand"] == "http://localhost/v1/track/osmand?id=\(device.key)")
            // GPSLogger: the custom URL with the key, as creating the device showed it.
            #expect(texts["gpslogger"] == ingest["gpslogger"])
            // OwnTracks: its configuration link; HTTP mode, the URL, the owner and the key.
            let link = try #require(texts["owntracks"])
            #expect(link.hasPrefix("owntracks:///config?inline="))
            let inline = try #require(
                URLComponents(string: link)?.queryItems?.first { $0.name == "inline" }?.value)
            let json = try #require(Data(base64Encoded: inline))
            let configuration = try #require(try JSONSerialization.jsonObject(with: json) as? JSONObject)
            #expect(configuration["_type"] as? String == "configuration")
            #expect(configuration["mode"] as? Int == 3)
            #expect(configuration["url"] as? String == ingest["owntracks"])
            #expect(configuration["auth"] as? Bool == true)
            #expect(configuration["username"] as? String == "ada")
            #expect(configuration["password"] as? String == device.key)

            // The settings work: OwnTracks' credentials and Traccar Client's identifier.
            let credentials = Data("ada:\(device.key)".utf8).base64EncodedString()
            let owntracks = try await client.execute(
                uri: "/v1/track/owntracks", method: .post,
                headers: [.authorization: "Basic \(credentials)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"_type":"location","lat":46.05,"lon":14.5,"tst":1700000000}"#))
            #expect(owntracks.status == .ok)
            let osmand = try #require(texts["osmand"])
            let traccar = try await client.send(
                .get,
                String(osmand.dropFirst("http://localhost".count)) + "&lat=46.0502&lon=14.5002&timestamp=1700000060")
            #expect(traccar.status == .ok)
            #expect(try await client.counts(token, device.id)["received"] == 2)
        }
    }

    @Test func aConfiguredPublicURLIsWhatTheCodesHold() async throws {
        try await withApp(configure: { $0.publicURL = "https://rr.example.org" }) { client in
            let token = try await client.register("ada")
            let device = try await client.createDevice(token, owner: "ada")
            let response = try await Self.qr(client, token, device.id, #"{"app":"osmand","key":"\#(device.key)"}"#)
            #expect(try Self.scanned(response) == "https://rr.example.org/v1/track/osmand?id=\(device.key)")
        }
    }

    @Test func anAddressTooLongForACodeIsRefused() async throws {
        let host = String(repeating: "a", count: 2000) + ".example.org"
        try await withApp(configure: { $0.publicURL = "https://\(host)" }) { client in
            let token = try await client.register("ada")
            let device = try await client.createDevice(token, owner: "ada")
            let response = try await Self.qr(client, token, device.id, #"{"app":"owntracks","key":"\#(device.key)"}"#)
            #expect(response.status == .unprocessableContent)
            #expect(response.text.contains("too long for a QR code"))
        }
    }

    @Test func onlyTheOwnerWithTheCurrentKeyGetsACode() async throws {
        try await withApp { client in
            let ada = try await client.register("ada", friends: ["bob"])
            let bob = try await client.register("bob")
            let device = try await client.createDevice(ada, owner: "ada")
            let body = #"{"app":"owntracks","key":"\#(device.key)"}"#
            // Anyone else: the same 404 as for a device that does not exist, even with the key.
            let foreign = try await Self.qr(client, bob, device.id, body)
            #expect(foreign.status == .notFound)
            let missing = try await Self.qr(client, bob, "0123456789abcdef01234567", body)
            #expect(missing.status == .notFound && missing.text == foreign.text)
            #expect(try await Self.qr(client, nil, device.id, body).status == .unauthorized)
            // A key that is not the device's: 422.
            let wrong = try await Self.qr(client, ada, device.id, #"{"app":"owntracks","key":"\#(device.key)x"}"#)
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.errorCode == "unprocessable")
            #expect(!wrong.text.contains(device.key))
            let long = String(repeating: "k", count: 300)
            #expect(
                try await Self.qr(client, ada, device.id, #"{"app":"osmand","key":"\#(long)"}"#).status
                    == .unprocessableContent)
            // After a rotation, the old key no longer draws a code; the new one does.
            let rotated = try await client.send(.post, "/v1/devices/\(device.id)/key", token: ada)
            let newKey = try #require(rotated.json["key"] as? String)
            #expect(try await Self.qr(client, ada, device.id, body).status == .unprocessableContent)
            let fresh = try await Self.qr(client, ada, device.id, #"{"app":"osmand","key":"\#(newKey)"}"#)
            #expect(fresh.status == .ok)
            // A malformed request: 400.
            for bad in [
                #"{"app":"osmand"}"#, #"{"key":"\#(newKey)"}"#, #"{"app":"traccar","key":"\#(newKey)"}"#,
                #"{"app":3,"key":"\#(newKey)"}"#, "",
            ] {
                #expect(try await Self.qr(client, ada, device.id, bad).status == .badRequest, "\(bad)")
            }
            let form = try await client.send(
                .post, "/v1/devices/\(device.id)/qr.svg", token: ada, json: "app=osmand",
                contentType: "application/x-www-form-urlencoded")
            #expect(form.status == .unsupportedMediaType)
            // The key is never taken from the URL: GET is not a method of this path.
            let get = try await client.send(
                .get, "/v1/devices/\(device.id)/qr.svg?app=osmand&key=\(newKey)", token: ada)
            #expect(get.status == .methodNotAllowed)
        }
    }
}
