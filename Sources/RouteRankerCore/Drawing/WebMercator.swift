import Foundation

/// The Web Mercator projection (EPSG:3857, as web maps use) onto the unit square: x grows east
/// from 0 at 180° W to 1 at 180° E, y grows south from 0 at about 85.05° N to 1 at 85.05° S.
public enum WebMercator {
    /// The latitude beyond which the projection is clamped (where it becomes square).
    public static let maxLatitude = 85.051_128_779_806_59
    /// The equatorial circumference of the WGS84 ellipsoid, metres: one unit of x at the equator.
    public static let earthCircumference = 40_075_016.686

    /// `(lat, lon)` in degrees as a point of the unit square.
    public static func project(lat: Double, lon: Double) -> (x: Double, y: Double) {
        let clamped = min(max(lat, -maxLatitude), maxLatitude)
        let phi = clamped * .pi / 180
        let x = (lon + 180) / 360
        let y = (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2
        return (x, y)
    }

    /// Metres on the ground per unit of x at latitude `lat` (the projection stretches by 1/cos φ).
    public static func metresPerUnit(atLatitude lat: Double) -> Double {
        earthCircumference * cos(min(abs(lat), maxLatitude) * .pi / 180)
    }
}

/// Projected points fitted into a picture `width` pixels wide with the aspect kept: the points'
/// box, less a margin, fills the width or the height (the height being at most `maxHeight`).
public struct MapFit: Sendable {
    /// The picture's size in pixels.
    public let width: Double
    public let height: Double
    /// Pixels per projected unit.
    public let scale: Double
    private let originX: Double
    private let originY: Double
    private let offsetX: Double
    private let offsetY: Double

    /// The fit for points in projected units (``WebMercator/project(lat:lon:)``), `margin` pixels
    /// kept free on every side. The height follows the points' aspect, between `minHeight` and
    /// `maxHeight`; a single point (or none) sits in the middle.
    public init(
        projected points: [(x: Double, y: Double)], width: Double, margin: Double,
        minHeight: Double, maxHeight: Double
    ) {
        self.width = width
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        let minX = xs.min() ?? 0.5
        let maxX = xs.max() ?? 0.5
        let minY = ys.min() ?? 0.5
        let maxY = ys.max() ?? 0.5
        let spanX = maxX - minX
        let spanY = maxY - minY
        let innerWidth = width - 2 * margin
        let aspectHeight: Double
        if spanX > 0 {
            aspectHeight = innerWidth * spanY / spanX + 2 * margin
        } else {
            aspectHeight = spanY > 0 ? maxHeight : minHeight
        }
        height = min(max(aspectHeight, minHeight), maxHeight)
        let innerHeight = height - 2 * margin
        let candidates = [spanX > 0 ? innerWidth / spanX : nil, spanY > 0 ? innerHeight / spanY : nil].compactMap {
            $0
        }
        // Without extent there is nothing to scale: one pixel per ~1 m at mid latitudes.
        scale = candidates.min() ?? 4e7
        originX = minX
        originY = minY
        offsetX = (width - spanX * scale) / 2
        offsetY = (height - spanY * scale) / 2
    }

    /// A picture `width` × `height` pixels at `scale` pixels per projected unit, `centre` (in
    /// projected units) in its middle.
    public init(width: Double, height: Double, scale: Double, centre: (x: Double, y: Double)) {
        self.width = width
        self.height = height
        self.scale = scale
        originX = centre.x
        originY = centre.y
        offsetX = width / 2
        offsetY = height / 2
    }

    /// The pixel position of a projected point.
    public func pixel(_ p: (x: Double, y: Double)) -> (x: Double, y: Double) {
        ((p.x - originX) * scale + offsetX, (p.y - originY) * scale + offsetY)
    }

    /// The projected point at the picture's pixel `p` (the inverse of ``pixel(_:)``).
    public func projected(ofPicturePixel p: (x: Double, y: Double)) -> (x: Double, y: Double) {
        ((p.x - offsetX) / scale + originX, (p.y - offsetY) / scale + originY)
    }

    /// Metres on the ground per pixel at latitude `lat`.
    public func metresPerPixel(atLatitude lat: Double) -> Double {
        WebMercator.metresPerUnit(atLatitude: lat) / scale
    }
}
