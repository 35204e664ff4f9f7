import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the track points of a GPX 1.0 or 1.1 file (https://www.topografix.com/GPX/1/1/)
/// as `L` rows' fixes, in one streaming pass (Foundation's SAX `XMLParser` over an input
/// stream: memory does not grow with the file).
///
/// What a GPX point gives and what it does not: `lat`, `lon`, `ele` (altitude) and `time`
/// (UTC); `speed` and `course` where the file has them (GPX 1.0 elements, or the same names
/// inside `extensions`, as Garmin's TrackPointExtension writes them; m/s and degrees).
/// `hdop` is not a distance, so eph stays `nan`; climb and epv are `nan`. The fix mode is
/// `fix` (`2d` → 2; `3d`, `dgps`, `pps` → 3; `none`: no position, the point is skipped);
/// without `fix` it is 3 where the point has an elevation and 2 where not.
///
/// Points are skipped, and counted, when they have no time or an unreadable one, no valid
/// position, `fix` none, or a time not after the point before (a row's When must increase).
/// Route points and waypoints carry no track and are only counted.
public final class GPXReader: NSObject, XMLParserDelegate {
    /// What a read found besides the fixes it handed out.
    public struct Counts: Sendable, Equatable {
        public var fixes = 0
        public var withoutTime = 0
        public var badTime = 0
        public var badPosition = 0
        public var noFix = 0
        /// Points whose time was not after the previous fix's (repeated or going back).
        public var notAfterPrevious = 0
        /// Points without `fix` whose mode was taken from whether they have an elevation.
        public var modeFromElevation = 0
        public var routePoints = 0
        public var waypoints = 0
        public var segments = 0
        /// The `creator` attribute of the `gpx` element.
        public var creator: String?
        /// Where the XML stopped being readable (the points before it were read), if it did.
        public var stoppedEarly: String?

        public var skipped: Int { withoutTime + badTime + badPosition + noFix + notAfterPrevious }
        public init() {}
    }

    /// Why a file could not be read at all.
    public struct ReadError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    private let each: (LocationFix) throws -> Void
    private var counts = Counts()
    private var failure: (any Error)?
    private var sawRoot = false
    private var rootClosed = false
    /// Where and what the first XML error was.
    private var xmlError: String?
    /// The first XML error was libxml2's limit, not damage (`explain`, code 1).
    private var tooLarge = false
    private var notGPX: String?
    /// Inside a `trkpt`: its attributes and the text of the children that matter.
    private var point: [String: String]?
    private var pointDepth = 0
    private var depth = 0
    /// Deeper than any GPX file nests (gpx, trk, trkseg, trkpt, extensions and theirs: under
    /// ten). The XML parser keeps a stack of the open elements: 50 MB of nested elements
    /// took 644 MB, where the import promises memory that does not grow with the file.
    public static let maxDepth = 100
    private var text = ""
    private var capturing = false
    private var lastWhen = -Double.infinity

    private init(each: @escaping (LocationFix) throws -> Void) { self.each = each }

    /// Reads `path`, calling `each` with every usable fix in file order. Throws `ReadError`
    /// when the file cannot be opened or is not GPX, and rethrows what `each` throws;
    /// malformed XML after the start ends the read with `stoppedEarly` set.
    public static func read(path: String, each: (LocationFix) throws -> Void) throws -> Counts {
        try withoutActuallyEscaping(each) { each in
            // Checked first: a stream that cannot open logs CoreFoundation's complaints.
            var folder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &folder) else {
                throw ReadError(description: "\(path): no such file")
            }
            guard !folder.boolValue else { throw ReadError(description: "\(path) is a folder, not a GPX file") }
            guard FileManager.default.isReadableFile(atPath: path), let stream = InputStream(fileAtPath: path) else {
                throw ReadError(description: "\(path): cannot read it (permission denied?)")
            }
            var prefix: [UInt8] = []
            if let handle = FileHandle(forReadingAtPath: path) {
                prefix = [UInt8]((try? handle.read(upToCount: 512)) ?? Data())
                try? handle.close()
            }
            if let problem = XMLEncodingCheck.problem(prefix) {
                throw ReadError(description: "\(path): \(problem), which is not read (GPX files are UTF-8): convert it first, e.g. with iconv, and declare encoding=\"UTF-8\"")
            }
            let reader = GPXReader(each: each)
            let parser = XMLParser(stream: stream)
            parser.delegate = reader
            parser.shouldResolveExternalEntities = false
            let done = parser.parse()
            if let failure = reader.failure { throw failure }
            if let root = reader.notGPX {
                throw ReadError(description: "\(path): not a GPX file (its first element is <\(root)>, not <gpx>)")
            }
            if done && reader.sawRoot && !reader.rootClosed {
                // XMLParser over a stream does not report a document that just stops.
                reader.counts.stoppedEarly = "the file ends before its </gpx> (line \(parser.lineNumber)): cut short; the points before it were read"
            } else if !done || !reader.sawRoot {
                let error = reader.xmlError
                    ?? "line \(parser.lineNumber), column \(parser.columnNumber) (\(Self.explain(parser.parserError)))"
                guard reader.sawRoot else {
                    throw ReadError(description: "\(path): not a GPX file: not readable as XML (\(error))")
                }
                reader.counts.stoppedEarly = reader.tooLarge
                    ? "the XML reader stopped at \(error): the file is not damaged there, but holds more than the reader takes; the points before it were read"
                    : "the XML is broken at \(error): cut short or damaged; the points before it were read"
            }
            return reader.counts
        }
    }

    /// The XML parser's error in words (its own text is only "error 76").
    static func explain(_ error: (any Error)?) -> String {
        guard let error else { return "unreadable XML" }
        // libxml2's numbers (xmlParserErrors), which XMLParser passes on.
        switch (error as NSError).code {
        case 4: return "no XML at the start"
        case 5: return "the file ends inside the XML"
        case 9: return "a character XML does not allow"
        case 73, 85: return "not well-formed XML"
        case 76: return "an element is closed by the wrong end tag"
        case 77: return "an end tag is cut off"
        case 89: return "entities that expand without end (refused)"
        // XML_ERR_INTERNAL_ERROR: what a valid file gives with a comment, CDATA section or
        // attribute longer than libxml2's 10 MB (it said "cut short or damaged").
        case 1: return "a comment, CDATA section or attribute longer than the 10 MB the XML reader takes"
        case let code: return "XML error \(code)"
        }
    }

    /// The children of a point whose text is read.
    private static let pointValues: Set<String> = ["ele", "time", "speed", "course", "fix"]

    private static func local(_ name: String) -> String {
        name.lastIndex(of: ":").map { String(name[name.index(after: $0)...]) } ?? name
    }

    public func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                       qualifiedName qName: String?, attributes: [String: String] = [:]) {
        let name = Self.local(elementName)
        depth += 1
        if depth > Self.maxDepth {
            if xmlError == nil {
                xmlError = "line \(parser.lineNumber), column \(parser.columnNumber) (elements nested more than "
                    + "\(Self.maxDepth) deep, which no GPX file does)"
            }
            parser.abortParsing()
            return
        }
        if !sawRoot {
            sawRoot = true
            if name != "gpx" { notGPX = String(name.prefix(40)); parser.abortParsing(); return }
            counts.creator = attributes["creator"]
            return
        }
        switch name {
        case "trkpt" where point == nil:
            point = ["lat": attributes["lat"] ?? "", "lon": attributes["lon"] ?? ""]
            pointDepth = depth
        case "trkseg":
            counts.segments += 1
        case "rtept":
            counts.routePoints += 1
        case "wpt":
            counts.waypoints += 1
        default:
            if point != nil && Self.pointValues.contains(name) { text = ""; capturing = true }
        }
    }

    public func parser(_ parser: XMLParser, foundCharacters string: String) {
        if capturing && text.utf8.count < 256 { text += string }
    }

    /// Text in a CDATA section (`<time><![CDATA[2026-…Z]]></time>`) is text as well.
    public func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        if capturing && text.utf8.count < 256 { text += String(decoding: CDATABlock.prefix(256), as: UTF8.self) }
    }

    public func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                       qualifiedName qName: String?) {
        defer { depth -= 1 }
        if depth == 1 { rootClosed = true }
        guard point != nil else { return }
        let name = Self.local(elementName)
        if capturing {
            capturing = false
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            // A GPX 1.0 child wins over the same name in extensions (deeper).
            if depth == pointDepth + 1 || point?[name] == nil { point?[name] = value }
            return
        }
        if name == "trkpt" && depth == pointDepth, let p = point {
            point = nil
            finish(p, parser)
        }
    }

    /// The first XML error ends the read there (libxml2 would go on guessing).
    public func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if xmlError == nil {
            xmlError = "line \(parser.lineNumber), column \(parser.columnNumber) (\(Self.explain(parseError)))"
            tooLarge = (parseError as NSError).code == 1
        }
        parser.abortParsing()
    }

    /// The fix of one point, or the count of why there is none.
    private func finish(_ p: [String: String], _ parser: XMLParser) {
        guard let lat = Double(p["lat"] ?? ""), let lon = Double(p["lon"] ?? ""),
              lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else { counts.badPosition += 1; return }
        guard let timeText = p["time"], !timeText.isEmpty else { counts.withoutTime += 1; return }
        guard let when = TimeText.epochSeconds(iso8601: timeText), abs(when) <= CSVFormat.maxWhen else {
            counts.badTime += 1; return
        }
        let ele = Double(p["ele"] ?? "").flatMap { $0.isFinite ? $0 : nil } ?? .nan
        let mode: Int
        switch p["fix"]?.lowercased() {
        case "none": counts.noFix += 1; return
        case "2d": mode = 2
        case "3d", "dgps", "pps": mode = 3
        default:
            mode = ele.isNaN ? 2 : 3
            counts.modeFromElevation += 1
        }
        guard when > lastWhen else { counts.notAfterPrevious += 1; return }
        let speed = Double(p["speed"] ?? "").flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? .nan
        let course = Double(p["course"] ?? "").flatMap { $0.isFinite ? $0 : nil } ?? .nan
        let fix = LocationFix(when: when, latitude: lat, longitude: lon, altitudeMSL: ele, speed: speed,
                              course: course, mode: mode)
        do { try each(fix) } catch { failure = error; parser.abortParsing(); return }
        lastWhen = when
        counts.fixes += 1
    }
}
