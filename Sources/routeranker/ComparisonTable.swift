import Foundation
import RouteRankerModels
import RouteRankerServer

/// Renders a comparison as two plain-text tables: the groups best first, then the pairs.
struct ComparisonTable {
    let body: Comparison

    init(_ body: Comparison) { self.body = body }

    func render() -> String {
        let byID = Dictionary(body.groups.map { ($0.id ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        let groupRows = body.ranking.enumerated().compactMap { index, id -> [String]? in
            guard let g = byID[id] else { return nil }
            return [
                String(index + 1), g.name ?? id, String(g.count), Self.number(g.mean), Self.number(g.median),
                Self.number(g.stddev), Self.number(g.min), Self.number(g.max),
            ]
        }
        let pairRows = body.pairs.map { p in
            [
                byID[p.a]?.name ?? p.a, byID[p.b]?.name ?? p.b, Self.number(p.meanDiff), Self.number(p.ratio),
                Self.number(p.t), Self.number(p.df), Self.pValue(p.pValue),
            ]
        }
        return "metric: \(body.metric)\n\n"
            + Self.table(["#", "group", "n", "mean", "median", "stddev", "min", "max"], groupRows) + "\n\n"
            + Self.table(["a", "b", "mean(a)-mean(b)", "ratio", "t", "df", "p (Welch)"], pairRows)
    }

    private static func table(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            let padded = zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
            return String(padded.joined(separator: "  ").reversed().drop { $0 == " " }.reversed())
        }
        return
            ([line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
            + rows.map(line)).joined(separator: "\n")
    }

    private static func number(_ value: Double?) -> String {
        guard let value else { return "–" }
        return String(format: "%.3f", value)
    }

    private static func pValue(_ value: Double?) -> String {
        guard let value else { return "–" }
        return value < 0.001 ? String(format: "%.2e", value) : String(format: "%.4f", value)
    }
}
