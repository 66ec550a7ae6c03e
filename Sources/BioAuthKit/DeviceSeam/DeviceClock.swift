#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#else
import Foundation
#endif

/// The device's clock for deadlines the client keeps itself (an access token's): seconds from an
/// arbitrary start that keep counting while the device sleeps and that setting the date does not
/// move. A deadline measured on it holds however wrong the device's date is.
@_spi(DeviceSeam) public protocol DeviceClock: Sendable {
    /// Seconds since the clock's start.
    func seconds() -> Double
}

/// The system's monotonic clock that counts sleep: `CLOCK_MONOTONIC` on Apple platforms (it
/// includes sleep there, as `mach_continuous_time`), `CLOCK_BOOTTIME` on Linux. Only differences
/// of it are used (never the boot time), and it is none of the system boot time APIs Apple's
/// privacy manifest asks a reason for (PrivacyManifestTests).
struct MonotonicClock: DeviceClock {
    func seconds() -> Double {
        #if canImport(Darwin)
        return Double(clock_gettime_nsec_np(CLOCK_MONOTONIC)) / 1e9
        #elseif canImport(Glibc)
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        #else
        return Date().timeIntervalSince1970  // no monotonic clock reached here: the date
        #endif
    }
}
