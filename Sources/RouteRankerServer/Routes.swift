/// The whole HTTP API, one row per endpoint. Handlers live in the controllers and return data;
/// errors are thrown and mapped in `APIError`.
func routeTable(_ c: Controllers) -> [Endpoint] {
    accountTable(c.users, c.privacyZones) + [
        // Operations
        .get("/healthz", c.operations.health),
        .get("/readyz", c.operations.ready),
        .get("/metrics", c.operations.metrics),
        .get("/openapi.yaml", c.operations.openAPI),

        // Routes
        .post("/v1/routes", c.routes.create),
        .get("/v1/routes", c.routeList.list),
        .get("/v1/routes/{id}", c.routes.get),
        .patch("/v1/routes/{id}", c.routes.patch),
        .delete("/v1/routes/{id}", c.routes.delete),
        .post("/v1/routes/{id}/points", c.routes.append),
        .get("/v1/routes/{id}/points", c.downloads.points),
        .post("/v1/routes/{id}/finish", c.routes.finish),
        .get("/v1/routes/{id}/similar", c.similar.similar),

        // Sharing
        .post("/v1/routes/{id}/shares", c.shares.share),
        .get("/v1/routes/{id}/shares", c.shares.list),
        .delete("/v1/routes/{id}/shares/{user}", c.shares.revoke),
        .get("/v1/shares", c.shares.inbox),
        .post("/v1/routes/{id}/links", c.links.create),
        .get("/v1/routes/{id}/links", c.links.list),
        .delete("/v1/routes/{id}/links/{link_id}", c.links.revoke),
        .get("/v1/links/{secret}", c.links.summary),
        .get("/v1/links/{secret}/points", c.links.points),

        // Live following (Server-Sent Events)
        .get("/v1/routes/{id}/live", c.live.route),
        .get("/v1/links/{secret}/live", c.live.link),

        // Groups and comparison
        .post("/v1/groups", c.groups.create),
        .get("/v1/groups", c.groups.list),
        .get("/v1/groups/{id}", c.groups.get),
        .patch("/v1/groups/{id}", c.groups.patch),
        .delete("/v1/groups/{id}", c.groups.delete),
        .get("/v1/groups/{id}/stats", c.groupStats.stats),
        .get("/v1/compare", c.groupStats.compare),

        // Pictures and pages
        .get("/v1/routes/{id}/map.svg", c.pictures.routeMap),
        .get("/v1/routes/{id}/profile.svg", c.pictures.routeProfile),
        .get("/v1/links/{secret}/map.svg", c.pictures.linkMap),
        .get("/v1/compare.svg", c.groupStats.compareChart),
        .get("/l/{secret}", c.pages.linkPage),
        .get("/", c.pages.app),
        .get("/web/{file}", c.pages.asset),
        // Segments and leaderboards
        .post("/v1/segments", c.segments.create),
        .get("/v1/segments", c.segments.list),
        .get("/v1/segments/{id}", c.segments.get),
        .delete("/v1/segments/{id}", c.segments.delete),
        .get("/v1/segments/{id}/leaderboard", c.segmentBoards.leaderboard),
        .get("/v1/segments/{id}/efforts", c.segmentBoards.efforts),
        // Devices and the tracker apps' endpoints
        .post("/v1/devices", c.devices.create),
        .get("/v1/devices", c.devices.list),
        .get("/v1/devices/{id}", c.devices.get),
        .patch("/v1/devices/{id}", c.devices.patch),
        .delete("/v1/devices/{id}", c.devices.delete),
        .post("/v1/devices/{id}/key", c.devices.rotateKey),
        .post("/v1/devices/{id}/qr.svg", c.devices.setupCode),
        .post("/v1/track/owntracks", c.track.owntracks),
        .get("/v1/track/osmand", c.track.osmand),
        .post("/v1/track/osmand", c.track.osmand),
        // Best efforts, records and the training log
        .get("/v1/routes/{id}/best_efforts", c.records.route),
        .get("/v1/users/me/records", c.records.records),
        .get("/v1/users/me/records/{distance}", c.records.progression),
        .get("/v1/records/{distance}", c.records.ranking),
        .get("/v1/users/me/log", c.trainingLog.log),
        .get("/v1/users/me/log.svg", c.trainingLog.chart),
        // Moving in, moving out, leaving
        .delete("/v1/users/me", c.account.leave),
        .get("/v1/users/me/export", c.export.export),
        .post("/v1/imports", c.imports.create),
        .get("/v1/imports", c.imports.list),
        .get("/v1/imports/{id}", c.imports.get),
        .get("/v1/imports/{id}/files", c.imports.files),
    ]
}

/// Users and friends: the account's own rows, which need nothing but the users (tests of their
/// request handling mount these alone, on users kept in memory).
func accountTable(_ users: UsersController, _ privacyZones: PrivacyZonesController) -> [Endpoint] {
    [
        .post("/v1/users", users.register),
        .get("/v1/users/me", users.me),
        .patch("/v1/users/me", users.update),
        .post("/v1/users/me/token", users.rotateToken),
        .get("/v1/friends", users.friends),
        .get("/v1/users/me/privacy_zones", privacyZones.get),
        .put("/v1/users/me/privacy_zones", privacyZones.put),
    ]
}
