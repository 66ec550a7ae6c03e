package com.bioauth.kit.client

/**
 * What unlocks the biometric sign-in key and the secrets kept behind biometrics
 * ([BioAuthConfiguration.policy]). Declared in the device layer, whose key specs it decides.
 */
public typealias BiometricPolicy = com.bioauth.kit.device.BiometricPolicy
