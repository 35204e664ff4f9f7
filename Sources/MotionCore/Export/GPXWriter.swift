/// Writes a track as a GPX 1.1 document (https://www.topografix.com/GPX/1/1/): one `trk`
/// with a `trkseg` per segment; each `trkpt` has lat/lon (plain decimals that read back
/// to the recorded Doubles), `ele` (altitude MSL, when known), `time` (UTC) and `fix`, and
/// gpsd's speed and course where known in Garmin's TrackPointExtension v2 (`gpxtpx:speed`
/// in m/s, `gpxtpx:course` in degrees 0–360), as Garmin devices write them and `import`
/// reads them: GPX 1.1 has no element for either, and an export imported again lost them.
public enum GPXWriter {
    public static func document(_ track: some TrackPointSource, name: String, creator: String) throws -> String {
        var out = ""
        try write(track, name: name, creator: creator) { out += $0 }
        return out
    }

    /// Streams the document to `sink` in pieces of about 64 KiB, walking the track's points
    /// once (memory does not hold the whole document).
    public static func write(_ track: some TrackPointSource, name: String, creator: String,
                             to sink: (String) throws -> Void) throws {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="\(ExportText.xml(creator))" xmlns="http://www.topografix.com/GPX/1/1" \
        xmlns:gpxtpx="\(trackPointExtension)" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
        xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd \
        \(trackPointExtension) https://www8.garmin.com/xmlschemas/TrackPointExtensionv2.xsd">

        """
        out += "  <metadata>\n    <name>\(ExportText.xml(name))</name>\n"
        if let first = track.firstTime { out += "    <time>\(ExportText.utc(first))</time>\n" }
        out += "  </metadata>\n"
        out += "  <trk>\n    <name>\(ExportText.xml(name))</name>\n"
        if track.count > 0 { out += "    <trkseg>\n" }
        let starts = track.segmentStarts
        var index = 0, next = 1
        try track.forEachPoint { p in
            if next < starts.count && index == starts[next] {
                out += "    </trkseg>\n    <trkseg>\n"
                next += 1
            }
            out += point(p)
            index += 1
            if out.utf8.count >= 1 << 16 { try sink(out); out = "" }
        }
        if track.count > 0 { out += "    </trkseg>\n" }
        out += "  </trk>\n</gpx>\n"
        try sink(out)
    }

    /// One `trkpt`; children in the order the GPX 1.1 schema requires (ele, time, ..., fix).
    /// GPX 1.1's longitudeType is -180 <= lon < 180: 180 is written as -180 (the same meridian).
    static func point(_ p: TrackPoint) -> String {
        let lon = p.longitude == 180 ? -180 : p.longitude
        var out = "      <trkpt lat=\"\(ExportText.decimal(p.latitude) ?? "0")\" lon=\"\(ExportText.decimal(lon) ?? "0")\">"
        if let ele = ExportText.decimal(p.altitudeMSL) { out += "<ele>\(ele)</ele>" }
        out += "<time>\(ExportText.utc(p.time))</time>"
        if p.mode == 2 { out += "<fix>2d</fix>" } else if p.mode == 3 { out += "<fix>3d</fix>" }
        let speed = p.speed.isFinite && p.speed >= 0 ? ExportText.decimal(p.speed) : nil
        // DegreesType: 0 <= course < 360 (gpsd gives 0–360; 360 is north again).
        let degrees = p.course.isFinite ? p.course.truncatingRemainder(dividingBy: 360) : .nan
        let course = ExportText.decimal(degrees < 0 ? degrees + 360 : degrees)
        if speed != nil || course != nil {
            out += "<extensions><gpxtpx:TrackPointExtension>"
            if let speed { out += "<gpxtpx:speed>\(speed)</gpxtpx:speed>" }
            if let course { out += "<gpxtpx:course>\(course)</gpxtpx:course>" }
            out += "</gpxtpx:TrackPointExtension></extensions>"
        }
        return out + "</trkpt>\n"
    }

    /// Garmin's TrackPointExtension v2 namespace (speed and course of a track point).
    static let trackPointExtension = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
}
