package com.bioauth.kit.device

/** What the SDK asks about the device. */
public interface DeviceInfo {
    /** `Build.VERSION.SDK_INT`. */
    public val apiLevel: Int

    /** `KeyguardManager.isDeviceSecure()`: a PIN, pattern or password is set. */
    public fun isDeviceSecure(): Boolean

    /** `KeyguardManager.isDeviceLocked()`. */
    public fun isDeviceLocked(): Boolean
}
