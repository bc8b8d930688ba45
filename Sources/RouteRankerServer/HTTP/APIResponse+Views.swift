import RouteRankerModels

// The records' JSON views are plain `Encodable` values in RouteRankerModels (no HTTP there); here
// they become responses a handler can return.
extension GroupView: APIResponse {}
extension GroupDetailView: APIResponse {}
extension RouteSummary: APIResponse {}
extension AppendResult: APIResponse {}
extension SegmentView: APIResponse {}
extension ShareView: APIResponse {}
