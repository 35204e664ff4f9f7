/// What the first line of a file is (docs/FORMAT.md, "Header" and "What readers tolerate").
/// `RecordingReader` reads each kind as `summary`'s scanner does, so `check` counts the rows
/// `summary` reads; every kind but `header` is a defect `check` reports.
enum FirstLine: Equatable {
    /// The format's header, byte for byte.
    case header
    /// The header's names with other spaces or tabs around them (`Source,Label,When,…`, as
    /// tools that rewrite a CSV write it): read as the header.
    case headerOtherwiseSpaced
    /// A line that starts as a data row does (a source letter and a comma): the header is
    /// missing, and the line is read as a row.
    case dataRow
    /// Neither: the lines after it are still read as rows.
    case other

    /// The first line, without its line end.
    init(_ line: String) {
        if line == CSVFormat.headerLine {
            self = .header
        } else if Self.withoutSpaces(line) == Self.compactHeader {
            self = .headerOtherwiseSpaced
        } else if let first = line.utf8.first, Source(rawValue: first) != nil,
                  line.utf8.dropFirst().first == CSVFormat.comma {
            self = .dataRow
        } else {
            self = .other
        }
    }

    /// Whether the file is read as a recording: binary data after such a first line is a
    /// damaged stretch (`BinaryRun`), not a file that is no recording at all.
    var isRecording: Bool { self != .other }

    private static let compactHeader = withoutSpaces(CSVFormat.headerLine)

    private static func withoutSpaces(_ line: String) -> String {
        String(String.UnicodeScalarView(line.unicodeScalars.filter { $0 != " " && $0 != "\t" }))
    }
}

extension LineParser {
    /// The problem a first line of `kind` is (nil for the header); `line` is its text.
    static func firstLineProblem(_ kind: FirstLine, _ line: String) -> RecordingProblem? {
        let header = "\"\(CSVFormat.headerLine)\""
        let message: String
        switch kind {
        case .header:
            return nil
        case .headerOtherwiseSpaced:
            message = "header \"\(line.prefix(120))\" is spaced differently from the format's \(header) "
                + "(byte for byte, a comma and a space between names): read as the header"
        case .dataRow:
            message = "no header: line 1 is a data row where the format has its header \(header); "
                + "it is read as a row, as are the lines after it (add the header as the first line)"
        case .other:
            message = "the first line is neither the header \(header) nor a data row "
                + "(found \"\(line.prefix(120))\"); the lines after it are read as rows"
        }
        return RecordingProblem(line: 1, severity: .error, message: message)
    }
}
