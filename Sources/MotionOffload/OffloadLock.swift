import MotionSystem
import SystemPackage

/// One offload of a recordings folder at a time: an exclusive `flock` on the folder itself,
/// held for the whole run. Two sticks plugged in together (or a run by hand during the udev
/// one) took the same recordings, and with --delete-after-copy the slower run found its
/// files deleted under it and ended in the error state, one error per part. The second run
/// now waits, then copies what is left. The recorder locks its CSV files, never the folder.
struct OffloadLock {
    private let fd: FileDescriptor

    /// Waits (checking `stop` every 0.2 s) until no other offload holds `folder`; `waiting`
    /// is told once when it has to wait.
    static func acquire(_ folder: String, stop: OffloadStop?, waiting: () -> Void) throws(OffloadError) -> OffloadLock {
        let fd: FileDescriptor
        do { fd = try FileSystem.open(folder, .readOnly, options: [.directory, .closeOnExec]) } catch {
            throw OffloadError("open the folder", path: folder, errno: error)
        }
        var told = false
        while true {
            // A file system without locks (ENOLCK): the run goes on unlocked, as before locks
            // existed (two runs at once lose nothing; the slower one reports errors).
            do { if try fd.tryLockExclusive() { return OffloadLock(fd: fd) } } catch { return OffloadLock(fd: fd) }
            if !told { waiting(); told = true }
            if let reason = stop?.reason {
                try? fd.close()
                var e = OffloadError("wait for another offload of", path: folder, reason: "stopped by \(reason) while waiting; nothing was copied")
                e.isStop = true
                throw e
            }
            SystemClocks.sleep(nanos: 200_000_000)
        }
    }

    /// Lets the next offload of the folder go.
    func release() { try? fd.close() }
}
