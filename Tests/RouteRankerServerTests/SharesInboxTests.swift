import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Sharing rules (API.md "Sharing" and "Details … Access") and the two share lists.
@Suite struct SharesInboxTests {
    @Test func recipientMustBeRegisteredBeforeBeingAFriendAndNeverMyself() async throws {
        try await withApp { client in
            let olga = try await client.register("olga", friends: ["fran", "ghost-friend"])
            _ = try await client.register("fran")
            let sam = try await client.register("sam", friends: ["olga"])
            let route = try await client.newSharedRoute(olga)

            for unknown in ["ghost", "ghost-friend"] {
                let response = try await client.shareRoute(olga, route, to: unknown)
                #expect(response.status == .notFound, "\(unknown)")
                #expect(response.errorCode == "not_found")
            }
            let myself = try await client.shareRoute(olga, route, to: "olga")
            #expect(myself.status == .unprocessableContent)
            #expect(myself.errorCode == "unprocessable")
            // Friendship is one-way and the sharer's list counts: Sam lists Olga, who does not list
            // him; Olga lists Fran, who does not list her.
            let notFriend = try await client.shareRoute(olga, route, to: "sam")
            #expect(notFriend.status == .forbidden)
            #expect(notFriend.errorCode == "forbidden")
            let listed = try await client.send(.get, "/v1/routes/\(route)/shares", token: olga)
            #expect(listed.json["total"] as? Int == 0)
            #expect(try await client.send(.get, "/v1/routes/\(route)", token: sam).status == .notFound)

            #expect(try await client.shareRoute(olga, route, to: "fran").status == .created)
            let samsRoute = try await client.newSharedRoute(sam)
            #expect(try await client.shareRoute(sam, samsRoute, to: "olga").status == .created)
            #expect(try await client.send(.get, "/v1/routes/\(samsRoute)", token: olga).status == .ok)
        }
    }

    @Test func reshareIs200WithTheFirstSharedAt() async throws {
        try await withApp { client in
            let olga = try await client.register("olga", friends: ["fran"])
            _ = try await client.register("fran")
            let route = try await client.newSharedRoute(olga)
            let first = try await client.shareRoute(olga, route, to: "fran")
            #expect(first.status == .created)
            #expect(Set(first.json.keys) == ["route", "to", "shared_at"])
            #expect(first.json["route"] as? String == route)
            #expect(first.json["to"] as? String == "fran")
            let sharedAt = try #require(first.json["shared_at"] as? String)
            #expect(sharedAt.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
            let again = try await client.shareRoute(olga, route, to: "fran")
            #expect(again.status == .ok)
            #expect(again.text == first.text)
            let listed = try await client.send(.get, "/v1/routes/\(route)/shares", token: olga)
            #expect(listed.json["total"] as? Int == 1)
            #expect(SharingFixture.items(listed).first?["shared_at"] as? String == sharedAt)
        }
    }

    @Test func revocationIsImmediateAndRevokingNothingIs404() async throws {
        try await withApp { client in
            let olga = try await client.register("olga", friends: ["fran", "sam"])
            let fran = try await client.register("fran")
            _ = try await client.register("sam")
            let route = try await client.newSharedRoute(olga)
            #expect(try await client.shareRoute(olga, route, to: "fran").status == .created)
            #expect(try await client.send(.get, "/v1/routes/\(route)/points", token: fran).status == .ok)
            let reference = try await client.send(.get, "/v1/routes/\(SharingFixture.madeUpRoute)", token: fran)

            #expect(try await client.send(.delete, "/v1/routes/\(route)/shares/fran", token: olga).status == .noContent)
            for path in ["", "/points", "/points?format=gpx"] {
                let after = try await client.send(.get, "/v1/routes/\(route)\(path)", token: fran)
                #expect(after.status == .notFound, "\(path)")
                #expect(after.text == reference.text, "\(path)")
            }
            let inbox = try await client.send(.get, "/v1/shares", token: fran)
            #expect(SharingFixture.items(inbox).isEmpty)
            #expect(inbox.json["total"] as? Int == 0)

            for user in ["fran", "sam", "ghost"] {
                let revoke = try await client.send(.delete, "/v1/routes/\(route)/shares/\(user)", token: olga)
                #expect(revoke.status == .notFound, "\(user)")
                #expect(revoke.errorCode == "not_found")
            }
        }
    }

    @Test func removingAFriendKeepsExistingShares() async throws {
        try await withApp { client in
            let olga = try await client.register("olga", friends: ["fran"])
            let fran = try await client.register("fran")
            let route = try await client.newSharedRoute(olga)
            let other = try await client.newSharedRoute(olga, name: "Other")
            #expect(try await client.shareRoute(olga, route, to: "fran").status == .created)
            let unfriend = try await client.send(.patch, "/v1/users/me", token: olga, json: #"{"friends":[]}"#)
            #expect(unfriend.status == .ok)

            #expect(try await client.send(.get, "/v1/routes/\(route)", token: fran).status == .ok)
            #expect(SharingFixture.ids(try await client.send(.get, "/v1/shares", token: fran), key: "route") == [route])
            // Existing shares stay, new ones need the friendship, re-sharing answers the share kept.
            #expect(try await client.shareRoute(olga, other, to: "fran").status == .forbidden)
            let listed = try await client.send(.get, "/v1/routes/\(route)/shares", token: olga)
            #expect(SharingFixture.ids(listed, key: "to") == ["fran"])
        }
    }

    @Test func deletingARouteRemovesItsSharesAndLinks() async throws {
        try await withApp { client in
            let olga = try await client.register("olga", friends: ["fran"])
            let fran = try await client.register("fran")
            let route = try await client.newSharedRoute(olga)
            let kept = try await client.newSharedRoute(olga, name: "Kept")
            for id in [kept, route] { #expect(try await client.shareRoute(olga, id, to: "fran").status == .created) }
            let link = try await client.newLink(olga, route)
            let linkReference = try await client.send(.get, "/v1/links/\(SharingFixture.madeUpSecret)")

            #expect(try await client.send(.delete, "/v1/routes/\(route)", token: olga).status == .noContent)
            let inbox = try await client.send(.get, "/v1/shares", token: fran)
            #expect(SharingFixture.ids(inbox, key: "route") == [kept])
            #expect(inbox.json["total"] as? Int == 1)
            #expect(try await client.send(.get, "/v1/routes/\(route)", token: fran).status == .notFound)
            for path in ["", "/points"] {
                let linked = try await client.send(.get, "/v1/links/\(link.secret)\(path)")
                #expect(linked.status == .notFound)
                #expect(linked.text == linkReference.text)
            }
        }
    }

    @Test func aRoutesSharesAreAnEnvelopeNewestFirst() async throws {
        try await withApp { client in
            let olga = try await client.register("olga", friends: ["a", "b", "c"])
            for user in ["a", "b", "c"] { _ = try await client.register(user) }
            let route = try await client.newSharedRoute(olga)
            for user in ["b", "a", "c"] {
                #expect(try await client.shareRoute(olga, route, to: user).status == .created)
            }
            let listed = try await client.send(.get, "/v1/routes/\(route)/shares", token: olga)
            #expect(listed.status == .ok)
            #expect(Set(listed.json.keys) == ["items", "next", "total"])
            #expect(listed.json["next"] is NSNull)
            #expect(listed.json["total"] as? Int == 3)
            #expect(SharingFixture.ids(listed, key: "to") == ["c", "a", "b"])
            for item in SharingFixture.items(listed) {
                #expect(Set(item.keys) == ["route", "to", "shared_at"])
                #expect(item["route"] as? String == route)
            }
            let dates = SharingFixture.items(listed).compactMap { SharingFixture.date($0["shared_at"]) }
            #expect(dates == dates.sorted(by: >) && dates.count == 3)

            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await client.send(
                    .get, "/v1/routes/\(route)/shares?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""), token: olga)
                #expect(page.json["total"] as? Int == 3)
                seen += SharingFixture.ids(page, key: "to")
                cursor = page.json["next"] as? String
            } while cursor != nil && seen.count < 10
            #expect(seen == ["c", "a", "b"])
        }
    }

    /// The first page tells the total without a count when it holds the whole inbox: the total
    /// must be the same either way, at every edge (empty, one short of a page, a full page, one
    /// more than a page), on every page.
    @Test func inboxTotalIsExactOnEitherSideOfAFullFirstPage() async throws {
        try await withApp { client in
            let olga = try await client.register("olga", friends: ["me"])
            let me = try await client.register("me")
            for n in 0...7 {
                if n > 0 {
                    let route = try await client.newSharedRoute(olga, name: "Route \(n)")
                    #expect(try await client.shareRoute(olga, route, to: "me").status == .created)
                }
                var seen: [String] = []
                var cursor: String?
                var pages = 0
                repeat {
                    let page = try await client.send(
                        .get, "/v1/shares?limit=5" + (cursor.map { "&cursor=\($0)" } ?? ""), token: me)
                    #expect(page.status == .ok)
                    #expect(page.json["total"] as? Int == n, "\(n) shares, page \(pages)")
                    seen += SharingFixture.ids(page, key: "route")
                    cursor = page.json["next"] as? String
                    pages += 1
                } while cursor != nil && pages < 10
                #expect(seen.count == n && Set(seen).count == n, "\(n) shares")
                #expect(pages == (n <= 5 ? 1 : 2), "\(n) shares")
            }
        }
    }

    @Test func inboxIsNewestFirstWithOwnerAndStatsAndPagesWithoutGaps() async throws {
        try await withApp { client in
            let olga = try await client.register("olga", name: "Olga O.", friends: ["me"])
            let paul = try await client.register("paul", name: "Paul P.", friends: ["me"])
            let me = try await client.register("me")
            var shared: [(route: String, owner: String, name: String)] = []
            for i in 0..<5 {
                let (owner, token) = i % 2 == 0 ? ("olga", olga) : ("paul", paul)
                let route = try await client.newSharedRoute(
                    token, name: "Route \(i)", points: SharingFixture.line(10 + i))
                #expect(try await client.shareRoute(token, route, to: "me").status == .created)
                shared.append((route, owner, "Route \(i)"))
            }
            let newestFirst = shared.reversed().map(\.route)
            let all = try await client.send(.get, "/v1/shares", token: me)
            #expect(Set(all.json.keys) == ["items", "next", "total"])
            #expect(SharingFixture.ids(all, key: "route") == newestFirst)
            for item in SharingFixture.items(all) {
                #expect(Set(item.keys) == ["route", "name", "owner", "shared_at", "stats"])
                let entry = try #require(shared.first { $0.route == item["route"] as? String })
                #expect(item["name"] as? String == entry.name)
                let owner = item["owner"] as? JSONObject
                #expect(owner?["id"] as? String == entry.owner)
                #expect(owner?["name"] as? String == (entry.owner == "olga" ? "Olga O." : "Paul P."))
                let points = SharingFixture.double((item["stats"] as? JSONObject)?["points"])
                #expect(points == Double(10 + Int(entry.name.dropFirst(6))!))
            }
            let dates = SharingFixture.items(all).compactMap { SharingFixture.date($0["shared_at"]) }
            #expect(dates == dates.sorted(by: >) && dates.count == 5)

            var pages: [[String]] = []
            var cursor: String?
            repeat {
                let page = try await client.send(
                    .get, "/v1/shares?limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""), token: me)
                #expect(page.status == .ok)
                #expect(page.json["total"] as? Int == 5)
                pages.append(SharingFixture.ids(page, key: "route"))
                cursor = page.json["next"] as? String
            } while cursor != nil && pages.count < 10
            #expect(pages.map(\.count) == [2, 2, 1])
            #expect(pages.flatMap { $0 } == newestFirst)
            let foreign = try await client.send(.get, "/v1/shares?cursor=garbage", token: me)
            #expect(foreign.status == .badRequest)
        }
    }

    /// Inbox pages asked for at the same moment share database commands
    /// (`MongoCollection.aggregateCoalesced`): each reader still gets exactly their own shares and
    /// total, in order, whatever page size and position the others asked for.
    @Test func concurrentInboxesOfSeveralReadersEachGetTheirOwn() async throws {
        try await withApp { client in
            let olga = try await client.register("olga", friends: ["r0", "r1", "r2"])
            var readers: [(id: String, token: String, routes: [String])] = []
            for r in 0..<3 { readers.append(("r\(r)", try await client.register("r\(r)"), [])) }
            // Reader r gets the routes i with i % 3 <= r: 4, 8 and 12 shares.
            for i in 0..<12 {
                let route = try await client.newSharedRoute(olga, name: "Route \(i)")
                for r in 0..<3 where i % 3 <= r {
                    #expect(try await client.shareRoute(olga, route, to: readers[r].id).status == .created)
                    readers[r].routes.insert(route, at: 0)  // newest first
                }
            }
            let snapshot = readers
            try await withThrowingTaskGroup(of: Void.self) { group in
                for caller in 0..<36 {
                    group.addTask {
                        let reader = snapshot[caller % 3]
                        let limit = [1, 3, 50][caller / 3 % 3]
                        let first = try await client.send(.get, "/v1/shares?limit=\(limit)", token: reader.token)
                        #expect(first.status == .ok)
                        #expect(first.json["total"] as? Int == reader.routes.count)
                        #expect(SharingFixture.ids(first, key: "route") == Array(reader.routes.prefix(limit)))
                        guard let cursor = first.json["next"] as? String else {
                            #expect(limit >= reader.routes.count)
                            return
                        }
                        let second = try await client.send(
                            .get, "/v1/shares?limit=\(limit)&cursor=\(cursor)", token: reader.token)
                        #expect(second.json["total"] as? Int == reader.routes.count)
                        #expect(
                            SharingFixture.ids(second, key: "route")
                                == Array(reader.routes.dropFirst(limit).prefix(limit)))
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}
