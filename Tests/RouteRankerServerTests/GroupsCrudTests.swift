import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite struct GroupsCrudTests {
    typealias F = GroupFixture

    @Test func createAnswersTheGroupAndGetGivesRouteSummaries() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let a = try await client.newGroupRoute(me, "Via bridge", F.leg(metres: 1000, seconds: 300))
            let b = try await client.newGroupRoute(me, "Via park", F.leg(metres: 1200, seconds: 400))

            let created = try await client.postGroup(me, "Commutes", [b, a, b])
            #expect(created.status == .created)
            #expect(Set(created.json.keys) == ["id", "name", "routes", "created_at"])
            let id = try #require(created.json["id"] as? String)
            #expect(created.json["name"] as? String == "Commutes")
            #expect(F.members(created) == [b, a])  // group order; a repeated id counts once
            let createdAt = try #require(created.json["created_at"] as? String)
            #expect(createdAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)

            let one = try await client.send(.get, "/v1/groups/\(id)", token: me)
            #expect(one.status == .ok)
            #expect(Set(one.json.keys) == ["id", "name", "routes", "created_at"])
            #expect(one.json["created_at"] as? String == createdAt)
            let summaries = try #require(one.json["routes"] as? [JSONObject])
            #expect(summaries.map { $0["id"] as? String } == [b, a])
            #expect(summaries.map { $0["name"] as? String } == ["Via park", "Via bridge"])
            #expect(summaries.first?["owner"] as? String == "me")
            #expect(F.value((summaries.first?["stats"] as? JSONObject)?["duration_s"]) == 400)

            let noToken = try await client.send(.get, "/v1/groups/\(id)")
            #expect(noToken.status == .unauthorized)
        }
    }

    @Test func routesICannotSeeAre422NamingThemAndCreateNothing() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let other = try await client.register("other")
            let mine = try await client.newGroupRoute(me, "Mine", F.leg(metres: 500, seconds: 100))
            let theirs = try await client.newGroupRoute(other, "Theirs", F.leg(metres: 500, seconds: 100))

            let bad = try await client.postGroup(me, "G", [mine, theirs, F.madeUpRoute, "not-an-id"])
            #expect(bad.status == .unprocessableContent)
            #expect(bad.errorCode == "unprocessable")
            #expect(F.badIDs(bad) == [theirs, F.madeUpRoute, "not-an-id"])
            let list = try await client.send(.get, "/v1/groups", token: me)
            #expect(list.json["total"] as? Int == 0)

            // Nothing names the other user's route, even to them: their group is unaffected.
            #expect(try await client.postGroup(other, "Theirs", [theirs]).status == .created)
        }
    }

    @Test func nameAndEitherRoutesOrSimilarToAreRequired() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let route = try await client.newGroupRoute(me, "R", F.leg(metres: 500, seconds: 100))
            let bodies = [
                #"{"routes":["\#(route)"]}"#,
                #"{"name":"","routes":["\#(route)"]}"#,
                #"{"name":"G"}"#,
                #"{"name":"G","routes":["\#(route)"],"similar_to":"\#(route)"}"#,
                #"{"name":"G","routes":"\#(route)"}"#,
                "[]",
            ]
            for body in bodies {
                let response = try await client.send(.post, "/v1/groups", token: me, json: body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorCode == "invalid_request", "\(body)")
            }
            let list = try await client.send(.get, "/v1/groups", token: me)
            #expect(list.json["total"] as? Int == 0)
        }
    }

    @Test func listIsNewestFirstInPages() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let other = try await client.register("other")
            let route = try await client.newGroupRoute(me, "R", F.leg(metres: 500, seconds: 100))
            var ids: [String] = []
            for name in ["First", "Second", "Third"] {
                ids.append(try await client.newGroup(me, name, [route]))
            }
            _ = try await client.newGroup(other, "Not mine", [])

            let all = try await client.send(.get, "/v1/groups", token: me)
            #expect(all.status == .ok)
            #expect(all.json["total"] as? Int == 3)
            #expect(all.json["next"] is NSNull)
            #expect(F.items(all).map { $0["id"] as? String } == ids.reversed())
            #expect(F.items(all).first.map { Set($0.keys) } == ["id", "name", "routes", "created_at"])
            #expect(F.items(all).first?["routes"] as? [String] == [route])

            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await client.send(
                    .get, "/v1/groups?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""), token: me)
                #expect(page.status == .ok)
                #expect(page.json["total"] as? Int == 3)
                #expect(F.items(page).count <= 2)
                seen += F.items(page).compactMap { $0["id"] as? String }
                cursor = page.json["next"] as? String
            } while cursor != nil && seen.count < 10
            #expect(seen == ids.reversed())
            // Cursors are bound to their list.
            _ = try await client.newGroupRoute(me, "R2", F.leg(metres: 600, seconds: 100))
            let groupCursor = try #require(
                try await client.send(.get, "/v1/groups?limit=1", token: me).json["next"] as? String)
            let routeCursor = try #require(
                try await client.send(.get, "/v1/routes?limit=1", token: me).json["next"] as? String)
            #expect(try await client.send(.get, "/v1/routes?cursor=\(groupCursor)", token: me).status == .badRequest)
            #expect(try await client.send(.get, "/v1/groups?cursor=\(routeCursor)", token: me).status == .badRequest)
            for query in ["limit=0", "limit=201", "cursor=garbage"] {
                #expect(try await client.send(.get, "/v1/groups?\(query)", token: me).status == .badRequest)
            }
        }
    }

    @Test func patchRenamesAddsAndRemovesAndAnInvisibleAddChangesNothing() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let other = try await client.register("other")
            let a = try await client.newGroupRoute(me, "A", F.leg(metres: 500, seconds: 100))
            let b = try await client.newGroupRoute(me, "B", F.leg(metres: 600, seconds: 100))
            let c = try await client.newGroupRoute(me, "C", F.leg(metres: 700, seconds: 100))
            let theirs = try await client.newGroupRoute(other, "Theirs", F.leg(metres: 500, seconds: 100))
            let id = try await client.newGroup(me, "Old", [a, b])

            let renamed = try await client.send(.patch, "/v1/groups/\(id)", token: me, json: #"{"name":"New"}"#)
            #expect(renamed.status == .ok)
            #expect(renamed.json["name"] as? String == "New")
            #expect(F.members(renamed) == [a, b])

            let added = try await client.send(
                .patch, "/v1/groups/\(id)", token: me, json: #"{"add":["\#(c)","\#(a)"]}"#)
            #expect(added.status == .ok)
            #expect(F.members(added) == [a, b, c])  // appended; a member added again stays once

            let removed = try await client.send(
                .patch, "/v1/groups/\(id)", token: me, json: #"{"remove":["\#(a)","\#(b)","\#(theirs)"]}"#)
            #expect(removed.status == .ok)
            #expect(F.members(removed) == [c])  // removing a non-member is harmless

            let before = try await client.send(.get, "/v1/groups/\(id)", token: me)
            let refused = try await client.send(
                .patch, "/v1/groups/\(id)", token: me,
                json: #"{"name":"Never","add":["\#(b)","\#(theirs)","\#(F.madeUpRoute)"],"remove":["\#(c)"]}"#)
            #expect(refused.status == .unprocessableContent)
            #expect(F.badIDs(refused) == [theirs, F.madeUpRoute])
            let after = try await client.send(.get, "/v1/groups/\(id)", token: me)
            #expect(after.text == before.text)
            #expect(after.json["name"] as? String == "New")

            let badName = try await client.send(.patch, "/v1/groups/\(id)", token: me, json: #"{"name":""}"#)
            #expect(badName.status == .badRequest)
        }
    }

    @Test func deleteIs204ThenTheGroupIsGone() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let route = try await client.newGroupRoute(me, "R", F.leg(metres: 500, seconds: 100))
            let id = try await client.newGroup(me, "G", [route])
            #expect(try await client.send(.delete, "/v1/groups/\(id)", token: me).status == .noContent)
            for method in [HTTPRequest.Method.get, .delete] {
                let gone = try await client.send(method, "/v1/groups/\(id)", token: me)
                #expect(gone.status == .notFound, "\(method)")
                #expect(gone.errorCode == "not_found")
            }
            #expect(try await client.groupStats(me, id).status == .notFound)
            #expect(try await client.send(.get, "/v1/routes/\(route)", token: me).status == .ok)  // routes stay
        }
    }

    @Test func anotherUsersGroupIs404Everywhere() async throws {
        try await withApp { client in
            let me = try await client.register("me")
            let friend = try await client.register("friend", friends: ["me"])  // even a friend
            let route = try await client.newGroupRoute(friend, "R", F.leg(metres: 500, seconds: 100))
            try await client.shareForGroup(friend, route, to: "me")
            let theirs = try await client.newGroup(friend, "Theirs", [route])
            let mine = try await client.newGroup(me, "Mine", [route])

            let requests: [(HTTPRequest.Method, String, String?)] = [
                (.get, "/v1/groups/\(theirs)", nil),
                (.patch, "/v1/groups/\(theirs)", #"{"name":"Taken"}"#),
                (.delete, "/v1/groups/\(theirs)", nil),
                (.get, "/v1/groups/\(theirs)/stats", nil),
                (.get, "/v1/compare?groups=\(mine),\(theirs)", nil),
                (.get, "/v1/compare?groups=\(theirs),\(mine)", nil),
                (.get, "/v1/groups/\(F.madeUpGroup)", nil),
                (.get, "/v1/groups/not-an-id", nil),
            ]
            for (method, uri, body) in requests {
                let response = try await client.send(method, uri, token: me, json: body)
                #expect(response.status == .notFound, "\(method) \(uri)")
                #expect(response.errorCode == "not_found", "\(method) \(uri)")
            }
            let still = try await client.send(.get, "/v1/groups/\(theirs)", token: friend)
            #expect(still.status == .ok)
            #expect(still.json["name"] as? String == "Theirs")
            let list = try await client.send(.get, "/v1/groups", token: me)
            #expect(F.items(list).map { $0["id"] as? String } == [mine])
        }
    }
}
