@_spi(DeviceSeam) import BioAuthKit
import Foundation

extension ItemID {
    init(_ query: KeychainQuery) {
        self.init(itemClass: query.itemClass.rawValue, service: query.service, account: query.account)
    }
}

extension SimulatedDevice {
    /// `SecItemAdd`.
    @_spi(DeviceSeam) public func add(_ query: KeychainQuery) -> KeychainStatus {
        state.withLock { state in
            let admission = Self.admissionStatus(query, state: state)
            guard admission == .success else { return admission }
            guard query.itemClass == .genericPassword, let data = query.data else { return .parameterError }
            let id = ItemID(query)
            guard state.items[id] == nil else { return .duplicateItem }
            state.items[id] = SimulatedItem(
                accessibility: (query.accessibility ?? .whenUnlockedThisDeviceOnly).rawValue,
                accessControl: query.accessControl?.rawValue,
                data: data
            )
            return .success
        }
    }

    /// `SecItemCopyMatching`: prompts (through the scripted user) for a protected item.
    @_spi(DeviceSeam) public func copyMatching(_ query: KeychainQuery) -> (status: KeychainStatus, data: Data?) {
        let context = query.authenticationContext as? SimulatedContext
        let answer: (status: KeychainStatus, data: Data?) = state.withLock { state in
            if state.entitlementMissing { return (.missingEntitlement, nil) }
            guard let item = state.items[ItemID(query)] else { return (.itemNotFound, nil) }
            let status = Self.checkUse(
                item,
                context: context,
                interactionNotAllowed: query.interactionNotAllowed,
                prompt: query.operationPrompt,
                state: &state
            ).status
            guard status == .success else { return (status, nil) }
            return (.success, query.returnData ? item.data : nil)
        }
        guard answer.status == Self.promptLeftUp else { return answer }
        switch closeWhenInvalidated(context) {
        case .closed(let status):
            return (status, nil)
        case .answeredLate(let late):
            return state.withLock { state in
                guard let item = state.items[ItemID(query)] else { return (.itemNotFound, nil) }
                let status = Self.lateOutcome(late, flags: item.accessControl, state: &state)
                if status == .success, let failure = item.invalidation { return (failure, nil) }
                guard status == .success else { return (status, nil) }
                return (.success, query.returnData ? item.data : nil)
            }
        }
    }

    /// `SecItemDelete`: never prompts.
    @_spi(DeviceSeam) public func delete(_ query: KeychainQuery) -> KeychainStatus {
        state.withLock { state in
            if state.entitlementMissing { return .missingEntitlement }
            return state.items.removeValue(forKey: ItemID(query)) == nil ? .itemNotFound : .success
        }
    }
}
