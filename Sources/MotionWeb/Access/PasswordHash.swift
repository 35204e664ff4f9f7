import HummingbirdBcrypt

/// The web password as stored in the config: a bcrypt hash (hummingbird-auth).
public enum PasswordHash {
    /// bcrypt cost: about a quarter second per login on a Raspberry Pi 4.
    public static let cost: UInt8 = 10

    public static func make(_ password: String) -> String { Bcrypt.hash(password, cost: cost) }

    @Sendable public static func verify(_ password: String, _ hash: String) -> Bool {
        Bcrypt.verify(password, hash: hash)
    }

    /// Whether `text` looks like a bcrypt hash (`$2a$`, `$2b$`, `$2y$`, 60 characters).
    public static func isHash(_ text: String) -> Bool {
        text.utf8.count == 60 && (text.hasPrefix("$2a$") || text.hasPrefix("$2b$") || text.hasPrefix("$2y$"))
    }
}
