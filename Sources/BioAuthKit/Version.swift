/// The version of BioAuthKit an app links (``BioAuthRelease/version``), for its diagnostics and
/// support reports: `BioAuthKit.version`.
public let version = BioAuthRelease.version
