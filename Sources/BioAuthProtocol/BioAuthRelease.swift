/// This release of BioAuth: the client SDK, the protocol and the server carry the same version.
public enum BioAuthRelease {
    /// The version, as CHANGELOG.md's newest entry and the git tag `v<version>` name it.
    public static let version = "0.1.0"
}
