/// Fewer vertices for lines with more of them than a picture can show.
///
/// A million-point route drawn vertex for vertex is an 11 MB picture (measured by
/// `scripts/probe costly`) that no screen resolves: at 640 pixels most vertices fall on a pixel
/// the line has just drawn. Lines with at most ``exactLimit(width:)`` vertices are drawn as they
/// are, so that an ordinary route's picture is its points exactly; longer ones are thinned by a
/// rule whose error is bounded in pixels.
public enum PolylineThinning {
    /// Lines up to this many vertices (four per pixel of width, the width taken within 1...100,000
    /// pixels) are drawn unthinned.
    public static func exactLimit(width: Double) -> Int { width.clampedInt(in: 1...100_000) * 4 }

    /// The vertices of a line, each within `tolerance` pixels of the previous kept one dropped,
    /// the first and last always kept. Every dropped vertex lies within `tolerance` of a kept
    /// vertex it follows, hence of the drawn line: the picture moves by at most `tolerance`.
    public static func nearby(_ xy: [(x: Double, y: Double)], tolerance: Double = 0.5) -> [(x: Double, y: Double)] {
        guard xy.count > 2 else { return xy }
        let limit = tolerance * tolerance
        var kept = [xy[0]]
        kept.reserveCapacity(min(xy.count, 1 << 16))
        var last = xy[0]
        for p in xy[1..<(xy.count - 1)] {
            let dx = p.x - last.x
            let dy = p.y - last.y
            if dx * dx + dy * dy > limit {
                kept.append(p)
                last = p
            }
        }
        kept.append(xy[xy.count - 1])
        return kept
    }

    /// A series over non-decreasing `x`, reduced to at most four vertices per pixel column: the
    /// first, the lowest, the highest and the last of the column, in their order along the
    /// series. A line through them covers the same pixels in every column as the full series
    /// (the column's vertical extent and its entry and exit), so a chart looks the same.
    public static func columns(_ xy: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        guard xy.count > 4 else { return xy }
        var kept: [(x: Double, y: Double)] = []
        var start = 0
        while start < xy.count {
            let column = xy[start].x.rounded(.down)
            var end = start + 1
            var low = start
            var high = start
            while end < xy.count, xy[end].x.rounded(.down) == column {
                if xy[end].y < xy[low].y { low = end }
                if xy[end].y > xy[high].y { high = end }
                end += 1
            }
            var previous = -1
            for i in [start, min(low, high), max(low, high), end - 1] where i != previous {
                kept.append(xy[i])
                previous = i
            }
            start = end
        }
        return kept
    }
}
