import MotionCore
import MotionTestSupport
import Testing

/// The in-memory folder keeps `OutputDirectory`'s promises as `DiskDirectory` does, so a
/// writer test against it means the same on a disk.
@Suite struct MemoryDirectoryTests {
    @Test func renameNeverOverwritesAndAnOpenFileFollowsIt() throws {
        let dir = MemoryDirectory()
        let (_, a) = try dir.createExclusive(base: "x", ext: ".csv")
        _ = try dir.createExclusive(base: "final", ext: ".csv")
        let base = try dir.rename("x.csv", toBase: "final", ext: ".csv")
        #expect(base == "final-1")
        let bytes: [UInt8] = Array("abc".utf8)
        try bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> Void in try a.write(raw) }
        #expect(dir.text("final-1.csv") == "abc" && dir.text("final.csv").isEmpty)
        #expect(dir.csvFiles == ["final-1.csv", "final.csv"])
        #expect(throws: OutputError.self) { try dir.rename("x.csv", toBase: "y", ext: ".csv") }
        try dir.remove(name: "final.csv")
        #expect(throws: OutputError.self) { try dir.remove(name: "final.csv") }
    }
}
