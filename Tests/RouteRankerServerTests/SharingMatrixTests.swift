import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// API.md "The hash checks": who may read a route, and that every refusal is the same `404`.
@Suite struct SharingMatrixTests {
    static let routeNotFound = #"{"error":{"code":"not_found","message":"route not found"}}"#

    /// Expects `200` when `allowed`, else exactly the `reference` 404 (status, body bytes, type).
    static func expect(_ response: TestResponse, allowed: Bool, reference: TestResponse, _ label: String) {
        if allowed {
            #expect(response.status == .ok, "\(label): \(response.text)")
        } else {
            #expect(response.status == .notFound, "\(label)")
            #expect(response.text == reference.text, "\(label)")
            #expect(response.headers[.contentType] == reference.headers[.contentType], "\(label)")
        }
    }

    @Test func everyReaderGetsExactlyWhatTheMatrixSays() async throws {
        let time = ManualClock.followingRealTime()
        try await withApp(configure: { $0.clock = time.clock }) { client in
            let olga = try await client.register("olga", friends: ["fran", "fwo", "rev"])
            let fran = try await client.register("fran")
            let fwo = try await client.register("fwo")
            let sam = try await client.register("sam")
            let rev = try await client.register("rev")
            let route = try await client.newSharedRoute(olga)
            let expired = try await client.newLink(olga, route, expiresIn: 1)
            #expect(try await client.shareRoute(olga, route, to: "fran").status == .created)
            #expect(try await client.shareRoute(olga, route, to: "rev").status == .created)
            #expect(try await client.send(.delete, "/v1/routes/\(route)/shares/rev", token: olga).status == .noContent)
            let valid = try await client.newLink(olga, route)
            let revoked = try await client.newLink(olga, route)
            #expect(
                try await client.send(.delete, "/v1/routes/\(route)/links/\(revoked.id)", token: olga).status
                    == .noContent)

            let reference = try await client.send(.get, "/v1/routes/\(SharingFixture.madeUpRoute)", token: olga)
            #expect(reference.status == .notFound)
            #expect(reference.text == Self.routeNotFound)
            time.advance(by: .seconds(2))  // past the first link's expiry, on the server's clock

            let near = "/v1/routes?near=\(SharingFixture.start.lat),\(SharingFixture.start.lon)&radius_m=500"
            let readers =
                [("owner", olga, true), ("friend with share", fran, true)]
                + [("friend without share", fwo, false), ("stranger", sam, false), ("revoked friend", rev, false)]
            for (who, token, sees) in readers {
                let summary = try await client.send(.get, "/v1/routes/\(route)", token: token)
                Self.expect(summary, allowed: sees, reference: reference, "\(who): summary")
                if sees { #expect((summary.json["shared_with"] != nil) == (who == "owner"), "\(who)") }
                for format in SharingFixture.formats {
                    let points = try await client.send(
                        .get, "/v1/routes/\(route)/points?format=\(format)", token: token)
                    Self.expect(points, allowed: sees, reference: reference, "\(who): \(format)")
                    if sees { #expect(try SharingFixture.coordinates(points.text, format: format).count == 30) }
                }
                // A conditional request learns no more than a plain one.
                let conditional = try await client.send(
                    .get, "/v1/routes/\(route)/points", token: token, headers: [.ifNoneMatch: "*"])
                #expect(conditional.status == (sees ? .notModified : .notFound), "\(who): If-None-Match")
                if !sees { #expect(conditional.text == reference.text) }
                let nearby = try await client.send(.get, near, token: token)
                #expect(nearby.status == .ok)
                #expect(SharingFixture.ids(nearby).contains(route) == sees, "\(who): near")
                let inbox = try await client.send(.get, "/v1/shares", token: token)
                #expect(inbox.status == .ok)
                #expect(
                    SharingFixture.ids(inbox, key: "route") == (who == "friend with share" ? [route] : []), "\(who)")
            }

            let linkReference = try await client.send(.get, "/v1/links/\(SharingFixture.madeUpSecret)")
            #expect(linkReference.status == .notFound)
            #expect(linkReference.errorCode == "not_found")
            let holders =
                [("valid", valid.secret, true), ("expired", expired.secret, false)]
                + [("revoked", revoked.secret, false), ("made up", SharingFixture.madeUpSecret, false)]
            for (which, secret, works) in holders {
                let summary = try await client.send(.get, "/v1/links/\(secret)")
                Self.expect(summary, allowed: works, reference: linkReference, "\(which) link: summary")
                if works {
                    #expect(summary.json["id"] as? String == route)
                    #expect(summary.json["shared_with"] == nil)
                }
                let conditional = try await client.send(
                    .get, "/v1/links/\(secret)/points", headers: [.ifNoneMatch: "*"])
                #expect(conditional.status == (works ? .notModified : .notFound), "\(which) link: If-None-Match")
                for format in SharingFixture.formats {
                    let points = try await client.send(.get, "/v1/links/\(secret)/points?format=\(format)")
                    Self.expect(points, allowed: works, reference: linkReference, "\(which) link: \(format)")
                    if works { #expect(try SharingFixture.coordinates(points.text, format: format).count == 30) }
                }
            }
        }
    }

    @Test func ownerOnlyActionsAre403ForARecipientAnd404ForAnyoneElse() async throws {
        try await withApp { client in
            let olga = try await client.register("olga", friends: ["fran", "fwo"])
            let fran = try await client.register("fran", friends: ["olga"])
            let sam = try await client.register("sam")
            _ = try await client.register("fwo")
            let route = try await client.newSharedRoute(olga, recording: true)
            #expect(try await client.shareRoute(olga, route, to: "fran").status == .created)
            let link = try await client.newLink(olga, route)
            let reference = try await client.send(.get, "/v1/routes/\(SharingFixture.madeUpRoute)", token: sam)
            let point = #"{"points":[{"lat":48.2,"lon":11.6,"t":1760000000}]}"#
            let actions: [(HTTPRequest.Method, String, String?)] = [
                (.post, "/shares", #"{"to":"fwo"}"#), (.get, "/shares", nil), (.delete, "/shares/fran", nil),
                (.post, "/links", "{}"), (.get, "/links", nil), (.delete, "/links/\(link.id)", nil),
                (.patch, "", #"{"name":"Mine now"}"#), (.post, "/points", point), (.post, "/finish", nil),
                (.delete, "", nil),
            ]
            for (method, suffix, body) in actions {
                let uri = "/v1/routes/\(route)\(suffix)"
                let byRecipient = try await client.send(method, uri, token: fran, json: body)
                #expect(byRecipient.status == .forbidden, "\(method) \(suffix): \(byRecipient.text)")
                #expect(byRecipient.errorCode == "forbidden")
                let byStranger = try await client.send(method, uri, token: sam, json: body)
                Self.expect(byStranger, allowed: false, reference: reference, "stranger \(method) \(suffix)")
            }
            // Nothing changed.
            let summary = try await client.send(.get, "/v1/routes/\(route)", token: olga)
            #expect(summary.json["name"] as? String == "Loop")
            #expect(summary.json["state"] as? String == "recording")
            #expect(summary.json["shared_with"] as? [String] == ["fran"])
            #expect(SharingFixture.double((summary.json["stats"] as? JSONObject)?["points"]) == 30)
            #expect(try await client.send(.get, "/v1/links/\(link.secret)").status == .ok)
        }
    }

    @Test func idsOfOtherShapesAreTheSame404() async throws {
        try await withApp { client in
            let olga = try await client.register("olga", friends: ["fran"])
            let fran = try await client.register("fran")
            let route = try await client.newSharedRoute(olga)
            #expect(try await client.shareRoute(olga, route, to: "fran").status == .created)
            let link = try await client.newLink(olga, route)
            let reference = try await client.send(.get, "/v1/routes/\(SharingFixture.madeUpRoute)", token: olga)
            let linkReference = try await client.send(.get, "/v1/links/\(SharingFixture.madeUpSecret)")
            let junk = [
                "000000000000000000000000", route.uppercased(), String(repeating: "a", count: 300), "%24ne",
                "%7B%22%24ne%22%3Anull%7D", "%00", "null", "\(route)%20", "%E2%80%AE", "%FF%FE",
            ]
            for id in junk {
                for token in [olga, fran] {
                    let summary = try await client.send(.get, "/v1/routes/\(id)", token: token)
                    Self.expect(summary, allowed: false, reference: reference, "summary of \(id.prefix(40))")
                    let points = try await client.send(.get, "/v1/routes/\(id)/points?format=csv", token: token)
                    Self.expect(points, allowed: false, reference: reference, "points of \(id.prefix(40))")
                }
                let secret = id == route.uppercased() ? link.secret.uppercased() : id
                let linked = try await client.send(.get, "/v1/links/\(secret)")
                Self.expect(linked, allowed: false, reference: linkReference, "link \(secret.prefix(40))")
                let linkPoints = try await client.send(.get, "/v1/links/\(secret)/points")
                Self.expect(linkPoints, allowed: false, reference: linkReference, "link points \(secret.prefix(40))")
                for path in ["shares/\(id)", "links/\(id)"] {
                    let revoke = try await client.send(.delete, "/v1/routes/\(route)/\(path)", token: olga)
                    #expect(revoke.status == .notFound, "DELETE \(path.prefix(40))")
                }
            }
            // Operators in JSON bodies are not ids.
            for body in [#"{"to":{"$ne":null}}"#, #"{"to":["fran"]}"#, #"{"to":5}"#, #"{"to":null}"#, "{}"] {
                let share = try await client.send(.post, "/v1/routes/\(route)/shares", token: olga, json: body)
                #expect(share.status == .badRequest, "\(body)")
                #expect(share.errorCode == "invalid_request")
            }
            let operatorLink = try await client.send(
                .post, "/v1/routes/\(route)/links", token: olga, json: #"{"expires_in_s":{"$gt":0}}"#)
            #expect(operatorLink.status == .badRequest)
            // None of it touched the share or the link.
            let shares = try await client.send(.get, "/v1/routes/\(route)/shares", token: olga)
            #expect(SharingFixture.ids(shares, key: "to") == ["fran"])
            #expect(try await client.send(.get, "/v1/routes/\(route)", token: fran).status == .ok)
            #expect(try await client.send(.get, "/v1/links/\(link.secret)").status == .ok)
            let links = try await client.send(.get, "/v1/routes/\(route)/links", token: olga)
            #expect(links.json["total"] as? Int == 1)
        }
    }
}
