import Foundation

/// A ``SequenceView`` as one self-contained HTML page: inline style and
/// script, nothing fetched, every recorded text escaped. Steps are bands
/// (`section.step`, one per step); in each, one row per item (`div.i`) with
/// its time and its mark or arrow across the lanes. Long sessions stay
/// light: bands come in chunks the browser lays out only when they are on
/// screen (`content-visibility`), and times are attributes, not elements. The page can zoom to a
/// step range, collapse runs of similar items and jump to the first
/// failure; hovering or clicking an item shows its details.
package enum SequenceHTML {
    /// Longest step output kept in a band's details.
    static let outputLimit = 2000
    /// Steps per chunk.
    static let chunk = 100

    package static func render(_ view: SequenceView) -> String {
        var html = ""
        html.reserveCapacity(256 + view.bands.count * 400)
        let lanes = view.lanes.count
        html += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        html += "<meta name=\"viewport\" content=\"width=device-width\">"
        html += "<title>\(e(view.title))</title>\n<style>\(SequenceHTML.style)\n"
        html += ":root{--cols:7.5em repeat(\(lanes),minmax(0,1fr))}\n"
        html += spanRules(view)
        html += "</style></head>\n<body class=\"collapse\">\n"
        html += header(view)
        html += "<main id=\"steps\"><div id=\"lines\" class=\"g\"><span></span>"
        html += String(repeating: "<span></span>", count: lanes)
        html += "</div>\n"
        for (index, band) in view.bands.enumerated() {
            if index % chunk == 0 { html += index == 0 ? "<div class=\"chunk\">\n" : "</div><div class=\"chunk\">\n" }
            render(band, start: view.start, into: &html)
        }
        if !view.bands.isEmpty { html += "</div>\n" }
        html += "</main>\n<aside id=\"detail\" hidden><button id=\"close\" title=\"close\">×</button><pre></pre></aside>\n"
        html += "<script>\(SequenceHTML.script)</script>\n</body></html>\n"
        return html
    }

    static func header(_ view: SequenceView) -> String {
        var html = "<header><h1>\(e(view.title))</h1>\n<p class=\"meta\">\(e(view.clock)), from "
        html += "\(e(stamp(view.start, since: 0, absolute: true)))"
        html += " · \(view.bands.count) step\(view.bands.count == 1 ? "" : "s")"
        let failures = view.bands.reduce(0) { $0 + $1.items.filter(\.isFailure).count }
        html += " · \(failures) failed request\(failures == 1 ? "" : "s")</p>\n<nav>"
        let last = view.bands.last?.number ?? 0
        html += "<label>steps <input id=\"from\" type=\"number\" min=\"1\" max=\"\(last)\" value=\"1\"></label>"
        html += "<label>to <input id=\"to\" type=\"number\" min=\"1\" max=\"\(last)\" value=\"\(last)\"></label>"
        html += "<button id=\"zoom\">zoom</button><button id=\"all\">all steps</button>"
        html += "<label><input id=\"collapse\" type=\"checkbox\" checked> collapse repeats</label>"
        if let failure = view.firstFailure {
            html += "<a id=\"first-failure\" href=\"#s\(failure)\">first failure: step \(failure)</a>"
        } else {
            html += "<span id=\"no-failure\">no failure</span>"
        }
        html += "</nav>\n"
        if !view.offlineWindows.isEmpty {
            html += "<ul id=\"faults\">"
            for window in view.offlineWindows {
                let to = window.to.map { stamp($0, since: view.start) } ?? "the end"
                html += "<li class=\"offline-window\" data-from=\"\(window.from)\" data-to=\"\(window.to.map(String.init) ?? "")\">"
                html += "offline \(e(stamp(window.from, since: view.start))) → \(e(to))</li>"
            }
            html += "</ul>\n"
        }
        html += "<div id=\"lanes\" class=\"g\"><span class=\"t\">\(e(view.clock))</span>"
        for lane in view.lanes {
            html += "<span class=\"lane \(lane.role.rawValue)\">\(e(lane.title))</span>"
        }
        return html + "</div></header>\n"
    }

    static func render(_ band: SequenceView.Band, start: Int64, into html: inout String) {
        let output = band.output.count > outputLimit ? String(band.output.prefix(outputLimit)) + "…" : band.output
        html += "<section class=\"step \(e(band.status.recordedName))\" id=\"s\(band.number)\" data-n=\"\(band.number)\">"
        html += "<h2 data-t=\"\(stamp(band.start, since: start))\" data-d=\"\(e(output))\">"
        html += "<span class=\"in\">#\(band.number) \(e(band.input))</span><span class=\"st\">\(e(band.statusLabel))</span></h2>\n"
        for item in band.items { render(item, start: start, into: &html) }
        html += "</section>\n"
    }

    static func render(_ item: SequenceView.Item, start: Int64, into html: inout String) {
        html += "<div class=\"i \(item.kind.rawValue)"
        if item.offline { html += " off" }
        if item.repeated { html += " rep" }
        html += "\""
        if item.runLength > 1 { html += " data-run=\"\(item.runLength)\"" }
        html += " data-t=\"\(stamp(item.time, since: start))\" data-d=\"\(e(item.detail))\">"
        let low = min(item.from, item.to)
        let high = max(item.from, item.to)
        // The count is on the chip itself: `attr()` in `p::before` reads the
        // `p`'s attributes, not its item's (issue 30: the × showed no count).
        html += "<p class=\"c\(low)-\(high)\(item.from > item.to ? " rl" : "")\(item.from == item.to ? "" : " ar")\""
        if item.runLength > 1 { html += " data-run=\"\(item.runLength)\"" }
        html += ">"
        html += e(item.label)
        if let answer = item.answer { html += "<em>\(e(answer))</em>" }
        html += "</p></div>\n"
    }

    /// A column span per pair of lanes used: lane i is grid column i + 2;
    /// an arrow runs from the middle of its first lane to the middle of its last.
    static func spanRules(_ view: SequenceView) -> String {
        var pairs = Set<[Int]>()
        for band in view.bands {
            for item in band.items { pairs.insert([min(item.from, item.to), max(item.from, item.to)]) }
        }
        return pairs.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }.map { pair in
            let span = pair[1] - pair[0] + 1
            let margin = pair[0] == pair[1] ? "" : ";margin:0 calc(100% / \(2 * span))"
            return ".c\(pair[0])-\(pair[1]){grid-column:\(pair[0] + 2)/\(pair[1] + 3)\(margin)}\n"
        }.joined()
    }

    static func e(_ text: String) -> String { MarkupText.escape(text) }

    /// `00:01:02.345` since `start`; `absolute`: the UTC date and time.
    static func stamp(_ time: Int64, since start: Int64, absolute: Bool = false) -> String {
        if absolute {
            return SessionListing.date(.init(timeIntervalSince1970: Double(time) / 1000))
        }
        return String(SessionListing.stamp(time, since: start).dropFirst().dropLast())
    }
}
