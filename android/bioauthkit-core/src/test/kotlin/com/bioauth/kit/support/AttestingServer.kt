package com.bioauth.kit.support

import com.bioauth.kit.simulator.SimulatedAttestationAuthority
import com.bioauth.kit.simulator.SimulatedDevice
import java.io.File

/**
 * A second `bioauth serve` (as [LoopbackServer], for the whole JVM run) that requires hardware
 * evidence for every device key: `--key-attestation require`, the sample app allowed
 * (`--android-allowed-app package:sha256`), and the simulator's attestation root trusted besides
 * Google's (`--android-attestation-roots`), as docs/CONFIGURATION.md describes the settings.
 */
object AttestingServer {
    /** The app allowed: the simulated phones' default package and signing certificate digest. */
    val ALLOWED_APP: String =
        SimulatedDevice.SAMPLE_PACKAGE + ":" + SimulatedDevice.SAMPLE_SIGNING_CERTIFICATE_DIGEST.joinToString("") { "%02x".format(it) }

    /** Where the server answers. */
    val url: String by lazy { start("require") }

    /** Another such server, run with `--key-attestation prefer`: keys register with or without evidence. */
    val preferring: String by lazy { start("prefer") }

    private fun start(mode: String): String {
        val roots = File.createTempFile("bioauth-android-attestation-roots", ".pem").apply {
            writeText(SimulatedAttestationAuthority.shared.rootPem())
            deleteOnExit()
        }
        return LoopbackServer.start(
            "--key-attestation", mode,
            "--android-allowed-app", ALLOWED_APP,
            "--android-attestation-roots", roots.path,
        )
    }
}
