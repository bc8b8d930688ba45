import Foundation
import TestSupport
import Testing

@testable import RouteRankerCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The drawing primitives: the SVG writer, Web Mercator fitting, ticks, box-plot statistics and
/// the formats people read.
@Suite struct DrawingTests {
    @Test func textIsEscapedAndTheDocumentParses() throws {
        let name = "<script>alert(1)</script> & \"quotes\" 'too'\u{1}"
        var svg = SVGWriter(width: 100, height: 50, title: name)
        svg.element("text", ["x": 1, "y": 2, "data-name": .text(name)], text: name)
        let parsed = try ParsedSVG(svg.finish())
        let clean = "<script>alert(1)</script> & \"quotes\" 'too'"
        #expect(parsed.title == clean)
        #expect(parsed.allText == clean)
        #expect(parsed.elements("script").isEmpty)
        #expect(parsed.elements("text").first.flatMap { ParsedSVG.attribute($0, "data-name") } == clean)
    }

    @Test func numbersHaveOneDecimalAndNoExponent() {
        #expect(SVGNumber.format(1.25) == "1.3" || SVGNumber.format(1.25) == "1.2")
        #expect(SVGNumber.format(3) == "3")
        #expect(SVGNumber.format(-0.04) == "0")
        #expect(SVGNumber.format(-12.34) == "-12.3")
        #expect(SVGNumber.format(1e-9) == "0")
        #expect(SVGNumber.format(123_456_789.06) == "123456789.1")
        #expect(SVGNumber.format(.nan) == "0")
        #expect(SVGNumber.format(.infinity) == "0")
    }

    @Test func mercatorProjectsTheCornersAndTheEquator() {
        let centre = WebMercator.project(lat: 0, lon: 0)
        #expect(abs(centre.x - 0.5) < 1e-12 && abs(centre.y - 0.5) < 1e-12)
        let northWest = WebMercator.project(lat: WebMercator.maxLatitude, lon: -180)
        #expect(abs(northWest.x) < 1e-12 && abs(northWest.y) < 1e-9)
        // Clamped beyond 85.05°: the pole does not go to infinity.
        #expect(WebMercator.project(lat: 90, lon: 0).y.isFinite)
    }

    @Test func aFitKeepsTheAspectAndStaysInsideTheMargins() {
        let points = [(x: 0.5, y: 0.3), (x: 0.502, y: 0.301), (x: 0.501, y: 0.3005)]
        let fit = MapFit(projected: points, width: 640, margin: 24, minHeight: 100, maxHeight: 2000)
        let pixels = points.map(fit.pixel)
        for p in pixels {
            #expect(p.x >= 24 - 1e-9 && p.x <= 640 - 24 + 1e-9)
            #expect(p.y >= 24 - 1e-9 && p.y <= fit.height - 24 + 1e-9)
        }
        // Aspect: x and y are scaled alike.
        let dx = pixels[1].x - pixels[0].x
        let dy = pixels[1].y - pixels[0].y
        #expect(abs(dx / dy - 2) < 1e-9)
        #expect(abs(fit.height - (592 / 2 + 48)) < 1e-9)
    }

    @Test(arguments: [
        (0.0, 1.0), (3.0, 97.0), (-12.5, 7.25), (1234.0, 1250.0), (0.001, 0.0042), (250.0, 250.0), (-5.0, -4.99),
    ])
    func ticksAreRoundNumbersCoveringTheData(_ low: Double, _ high: Double) {
        let ticks = AxisTicks(min: low, max: high)
        #expect(ticks.lower <= low && ticks.upper >= high)
        #expect(ticks.values.count >= 2 && ticks.values.count <= 12)
        let magnitude = pow(10, log10(ticks.step).rounded(.down))
        let mantissa = (ticks.step / magnitude * 1e9).rounded() / 1e9
        #expect([1, 2, 5, 10].contains(mantissa), "step \(ticks.step)")
        for value in ticks.values {
            let multiple = value / ticks.step
            #expect(abs(multiple - multiple.rounded()) < 1e-9, "\(value) is not a multiple of \(ticks.step)")
        }
    }

    @Test func durationTicksAreWholeMinutesAndHours() {
        let ticks = AxisTicks.duration(min: 1500, max: 4000)
        #expect(ticks.lower <= 1500 && ticks.upper >= 4000)
        #expect(ticks.step == 600)
        #expect(ticks.values.allSatisfy { $0.truncatingRemainder(dividingBy: 600) == 0 })
    }

    @Test func boxPlotQuartilesInterpolateAndTheIntervalUsesStudentsT() throws {
        let box = try #require(BoxPlotStatistics([7, 1, 3, 5, 9]))
        #expect(box.min == 1 && box.max == 9)
        #expect(box.q1 == 3 && box.median == 5 && box.q3 == 7)
        let even = try #require(BoxPlotStatistics([1, 2, 3, 4]))
        #expect(even.q1 == 1.75 && even.median == 2.5 && even.q3 == 3.25)
        // t(0.975, 4) = 2.776445; s = √10; half-width = 2.776445 · √10 / √5.
        let ci = try #require(box.confidenceInterval)
        let half = 2.776_445_105 * (10.0 / 5).squareRoot()
        #expect(abs(ci.lowerBound - (5 - half)) < 1e-6 && abs(ci.upperBound - (5 + half)) < 1e-6)
        #expect(abs(BoxPlotStatistics.tQuantile975(df: 1) - 12.706_204_736) < 1e-6)
        #expect(abs(BoxPlotStatistics.tQuantile975(df: 30) - 2.042_272_456) < 1e-6)
        #expect(BoxPlotStatistics([42])?.confidenceInterval == nil)
        #expect(BoxPlotStatistics([]) == nil)
    }

    @Test func numbersForPeople() {
        #expect(HumanFormat.distance(5012) == "5.01 km")
        #expect(HumanFormat.distance(850.4) == "850 m")
        #expect(HumanFormat.duration(3723) == "1:02:03")
        #expect(HumanFormat.duration(245) == "4:05")
        #expect(HumanFormat.pace(297) == "4:57 /km")
        #expect(HumanFormat.pace(nil) == "–")
        #expect(HumanFormat.speed(10 / 3.6) == "10.0 km/h")
        #expect(HumanFormat.pValue(0.0321) == "p = 0.032")
        #expect(HumanFormat.pValue(0.00002) == "p < 0.001")
        #expect(HumanFormat.fixed(-0.004, decimals: 2) == "0.00")
    }
}
