import NIOCore

/// The OpenAPI document, compiled into the binary (the repository root's `openapi.yaml` links to
/// `Resources/openapi.yaml`), so a deployed server needs no resource files beside it.
enum OpenAPIDocument {
    /// The document's bytes, served at `GET /openapi.yaml`.
    static var bytes: ByteBuffer {
        ByteBuffer(bytes: PackageResources.openapi_yaml)
    }
}
