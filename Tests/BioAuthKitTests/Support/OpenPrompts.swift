@_spi(DeviceSeam) import BioAuthSimulator

extension SimulatedDevice {
    /// Waits (without blocking a thread, at most two seconds) until `count` prompts are left up;
    /// whether they are.
    func waitForOpenPrompts(_ count: Int) async throws -> Bool {
        for _ in 0..<400 where openPromptCount != count { try await Task.sleep(for: .milliseconds(5)) }
        return openPromptCount == count
    }
}
