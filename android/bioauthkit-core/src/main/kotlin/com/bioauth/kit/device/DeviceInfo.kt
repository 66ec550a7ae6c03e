package com.bioauth.kit.device

/** What the SDK asks about the device. */
public interface DeviceInfo {
    /** `Build.VERSION.SDK_INT`. */
    public val apiLevel: Int

    /** `KeyguardManager.isDeviceSecure()`: a PIN, pattern or password is set. */
    public fun isDeviceSecure(): Boolean

    /** `KeyguardManager.isDeviceLocked()`. */
    public fun isDeviceLocked(): Boolean

    /**
     * `SystemClock.elapsedRealtime()`: milliseconds since boot, sleep included, unmoved by setting
     * the date. The deadlines the client keeps itself (an access token's) are measured on it.
     */
    public fun elapsedRealtimeMillis(): Long
}
