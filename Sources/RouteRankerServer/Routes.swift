/// The whole HTTP API, one row per endpoint. Handlers live in the controllers and return data;
/// errors are thrown and mapped in `APIError`.
func routeTable(_ c: Controllers) -> [Endpoint] {
    [
        // Operations
        .get("/healthz", c.operations.health),
        .get("/readyz", c.operations.ready),
        .get("/metrics", c.operations.metrics),
        .get("/openapi.yaml", c.operations.openAPI),

        // Users and friends
        .post("/v1/users", c.users.register),
        .get("/v1/users/me", c.users.me),
        .patch("/v1/users/me", c.users.update),
        .post("/v1/users/me/token", c.users.rotateToken),
        .get("/v1/friends", c.users.friends),
    ]
}
