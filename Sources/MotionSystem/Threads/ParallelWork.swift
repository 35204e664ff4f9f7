/// How much batch work (reading files: `OrderedPipeline`) may run at once.
public enum ParallelWork {
    /// Processors this process may use, at least 1.
    public static var processors: Int { max(1, SystemInfo.onlineProcessors) }
}
