import Foundation

/// The character encoding an XML file declares, checked before libxml2 (under Foundation's
/// `XMLParser`) reads it: Debian's libxml2 2.9.14 crashed the process (a null pointer in its
/// push parser) on a GPX file declaring `encoding="EBCDIC-US"`, `"UTF-32"`, or `"UTF-7"`
/// followed by damaged text (`make fuzz` found the last). So only the encodings GPX files
/// are written in are let through: UTF-8 (the GPX default), ASCII, UTF-16, ISO-8859-x and
/// Windows-125x; any other is refused with what to do.
enum XMLEncodingCheck {
    /// Encodings passed to the parser (upper case, as declared).
    static let readable: Set<String> = {
        var names: Set<String> = ["UTF-8", "UTF8", "US-ASCII", "ASCII", "UTF-16", "UTF16", "UTF-16LE", "UTF-16BE",
                                  "LATIN1", "LATIN-1"]
        for k in 1...16 { names.insert("ISO-8859-\(k)"); names.insert("ISO8859-\(k)"); names.insert("ISO_8859-\(k)") }
        for k in 1250...1258 { names.insert("WINDOWS-\(k)"); names.insert("CP\(k)") }
        return names
    }()

    /// Nil when the file may be parsed; otherwise why not, in words. `prefix`: its first bytes.
    static func problem(_ prefix: [UInt8]) -> String? {
        let head = Array(prefix.prefix(4))
        // XML 1.0, appendix F: UCS-4 (UTF-32) and EBCDIC are told by the first four bytes.
        if head == [0, 0, 0, 0x3C] || head == [0x3C, 0, 0, 0] || head == [0, 0, 0xFE, 0xFF] || head == [0xFF, 0xFE, 0, 0] {
            return "it is written in UTF-32"
        }
        if head == [0x4C, 0x6F, 0xA7, 0x94] { return "it is written in EBCDIC" }
        // UTF-16 puts a zero byte beside each ASCII character: the declaration reads the
        // same without them.
        let ascii = prefix.filter { $0 != 0 }
        guard let declaration = declaredEncoding(ascii) else { return nil }
        return readable.contains(declaration.uppercased()) ? nil : "its first line declares encoding=\"\(declaration)\""
    }

    /// The `encoding` of an XML declaration (`<?xml version="1.0" encoding="…"?>`) at the
    /// start of `bytes` (after a byte order mark), nil without one.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        var text = String(decoding: bytes.prefix(512), as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        guard text.hasPrefix("<?xml"), let end = text.range(of: "?>") else { return nil }
        let declaration = text[..<end.lowerBound]
        guard let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }
}
