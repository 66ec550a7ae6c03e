/// The demo could not go on: the server or the phone answered what no step expects.
struct DemoFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}
