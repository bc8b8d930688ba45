import RouteRankerCore

/// Privacy zones: `[{"lat","lon","radius_m"}]`, at most 10, radius 100–2000 m.
package struct PrivacyZoneList: Codable {
    package var zones: [PrivacyZone]

    package init(_ zones: [PrivacyZone]) { self.zones = zones }

    package init(from decoder: any Decoder) throws {
        guard var container = try? decoder.unkeyedContainer() else {
            throw InvalidInput("the body must be an array of zones", field: "zones")
        }
        var zones: [PrivacyZone] = []
        while !container.isAtEnd {
            let index = container.currentIndex
            guard let zone = try? container.decode(RawZone.self), let lat = zone.lat, let lon = zone.lon,
                let radius = zone.radius_m
            else {
                throw InvalidInput(
                    "zone \(index) must be an object with numbers lat, lon and radius_m", field: "zones", index: index)
            }
            guard lat.isFinite, lon.isFinite, (-90...90).contains(lat), (-180...180).contains(lon) else {
                throw InvalidInput(
                    "zone \(index): lat must be in [-90, 90] and lon in [-180, 180]", field: "zones", index: index)
            }
            guard radius.isFinite, (100...2000).contains(radius) else {
                throw InvalidInput(
                    "zone \(index): radius_m must be between 100 and 2000", field: "zones", index: index,
                    key: "radius_m")
            }
            zones.append(PrivacyZone(lat: lat, lon: lon, radiusM: radius))
        }
        guard zones.count <= 10 else { throw InvalidInput("at most 10 privacy zones", field: "zones") }
        self.zones = zones
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(zones)
    }

    private struct RawZone: Decodable {
        var lat: Double?
        var lon: Double?
        // swift-format-ignore: AlwaysUseLowerCamelCase
        var radius_m: Double?
    }
}
