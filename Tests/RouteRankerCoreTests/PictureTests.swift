import Foundation
import TestSupport
import Testing

@testable import RouteRankerCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The pictures, read back as XML: the map's line is the projected points, the charts' ticks
/// cover the data, groups come in the order given, and every text is escaped.
@Suite struct PictureTests {
    static func route(_ count: Int = 40) -> [TrackPoint] {
        (0..<count).map { i in
            let d = Double(i)
            return TrackPoint(
                lat: 46.05 + d * 0.0003, lon: 14.5 + d * 0.0005 + sin(d / 5) * 0.0004, t: 1_700_000_000 + d * 6,
                ele: 300 + 20 * sin(d / 8))
        }
    }

    @Test func theMapLineIsTheProjectedPoints() throws {
        let points = Self.route()
        let svg = RouteMapPicture.svg(points: points, width: 640, title: "Morning <run>")
        let parsed = try ParsedSVG(svg)
        #expect(parsed.title == "Morning <run>")
        let line = try #require(parsed.elements("polyline", class: "route").first)
        let drawn = ParsedSVG.points(line)
        let fit = RouteMapPicture.fit(points, width: 640)
        let expected = points.map { fit.pixel(WebMercator.project(lat: $0.lat, lon: $0.lon)) }
        #expect(drawn.count == points.count)
        for (d, e) in zip(drawn, expected) {
            #expect(abs(d.x - e.x) <= 0.05 + 1e-9 && abs(d.y - e.y) <= 0.05 + 1e-9)
        }
        let root = try #require(parsed.document.rootElement())
        #expect(ParsedSVG.number(root, "width") == 640)
        #expect(parsed.elements("circle", class: "start").count == 1)
        #expect(parsed.elements("circle", class: "end").count == 1)
        #expect(parsed.elements("script").isEmpty)
        // The scale bar is a round number of metres or kilometres.
        let label = try #require(parsed.elements("g").first { ParsedSVG.attribute($0, "class") == "scale-bar" })
        #expect(label.stringValue?.wholeMatch(of: /(1|2|5)0* (m|km)/) != nil, "\(label.stringValue ?? "")")
    }

    @Test func aMapWithoutPointsSaysSo() throws {
        let parsed = try ParsedSVG(RouteMapPicture.svg(points: [], width: 300, title: "Empty"))
        #expect(parsed.elements("polyline").isEmpty)
        #expect(parsed.allText.contains("No points"))
        let single = try ParsedSVG(RouteMapPicture.svg(points: [Self.route(1)[0]], width: 300, title: "One"))
        #expect(ParsedSVG.points(try #require(single.elements("polyline").first)).count == 1)
    }

    @Test(arguments: ProfileY.allCases) func profileTicksCoverTheSeries(_ y: ProfileY) throws {
        for x in ProfileX.allCases {
            let points = Self.route()
            let values = ProfileSeries.values(points, y: y, x: x)
            #expect(!values.isEmpty)
            let parsed = try ParsedSVG(ProfileChart.svg(points: points, y: y, x: x, width: 640, title: "P"))
            let series = try #require(parsed.elements("polyline", class: "series").first)
            #expect(ParsedSVG.points(series).count == values.count)
            // Every drawn point lies within the plot's ticks: the first and last tick lines.
            let yTicks = parsed.elements("text", class: "y-tick")
            let xTicks = parsed.elements("text", class: "x-tick")
            #expect(yTicks.count >= 2 && xTicks.count >= 2)
            let tickRows = yTicks.compactMap { ParsedSVG.number($0, "y") }.map { $0 - 4 }
            let tickColumns = xTicks.compactMap { ParsedSVG.number($0, "x") }
            for p in ParsedSVG.points(series) {
                #expect(p.y >= tickRows.min()! - 0.1 && p.y <= tickRows.max()! + 0.1)
                #expect(p.x >= tickColumns.min()! - 0.1 && p.x <= tickColumns.max()! + 0.1)
            }
            #expect(parsed.elements("text", class: "x-title").first?.stringValue?.isEmpty == false)
            #expect(parsed.elements("text", class: "y-title").first?.stringValue?.isEmpty == false)
        }
    }

    @Test func speedAndPaceUseTheTenSecondWindow() {
        // 10 m every 2 s: 5 m/s = 18 km/h, 200 s/km, once the window is full.
        var points: [TrackPoint] = []
        for i in 0..<30 {
            points.append(TrackPoint(lat: 0, lon: Double(i) * 10 / 111_319.49, t: 1000 + Double(i) * 2))
        }
        let speed = ProfileSeries.values(points, y: .speed, x: .time)
        #expect(speed.allSatisfy { abs($0.y - 18) < 0.1 })
        let pace = ProfileSeries.values(points, y: .pace, x: .distance)
        #expect(pace.allSatisfy { abs($0.y - 200) < 1 })
        #expect(ProfileSeries.values(points, y: .elevation, x: .distance).isEmpty)
    }

    @Test func compareDrawsOneBoxPerGroupInTheOrderGiven() throws {
        let groups = [
            CompareChart.Group(id: "fast", name: "Fast <way>", values: [1500, 1520, 1490, 1510]),
            CompareChart.Group(id: "slow", name: "Slow", values: [1800, 1850, 1790]),
            CompareChart.Group(id: "none", name: "Empty", values: []),
        ]
        let parsed = try ParsedSVG(CompareChart.svg(groups: groups, metric: .durationS, width: 640, title: "Compare"))
        let drawn = parsed.elements("g", class: "group").compactMap { ParsedSVG.attribute($0, "data-group") }
        #expect(drawn == ["fast", "slow", "none"])
        #expect(parsed.elements("rect", class: "box").count == 2)
        #expect(parsed.elements("circle", class: "dot").count == 7)
        #expect(parsed.elements("circle", class: "mean").count == 2)
        #expect(parsed.elements("path", class: "ci").count == 2)
        let pValues = parsed.elements("text", class: "p-value").compactMap(\.stringValue)
        #expect(pValues.count == 2)
        #expect(pValues.first?.hasPrefix("p ") == true)
        #expect(pValues.last == "p = –")
        #expect(parsed.allText.contains("Fast <way>"))
        // Axis ticks cover every value.
        let ticks = parsed.elements("text", class: "y-tick").compactMap(\.stringValue)
        #expect(ticks.first == "24:00" && ticks.last == "31:00" || ticks.count >= 2)
        let rows = parsed.elements("text", class: "y-tick").compactMap { ParsedSVG.number($0, "y") }.map { $0 - 4 }
        for dot in parsed.elements("circle", class: "dot") {
            let cy = try #require(ParsedSVG.number(dot, "cy"))
            #expect(cy >= rows.min()! - 0.1 && cy <= rows.max()! + 0.1)
        }
    }
}
