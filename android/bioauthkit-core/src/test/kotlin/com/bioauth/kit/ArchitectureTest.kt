package com.bioauth.kit

import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.File

/**
 * The SDK's arrows point down: a package of bioauthkit-core or of the Android library names only
 * its own layer's packages and those below. Read from the sources, so a new arrow up fails here.
 */
class ArchitectureTest {
    /** The packages under `com.bioauth.kit`, lowest layer first. */
    private val layers: List<List<String>> = listOf(
        // The wire: bodies, codes, the signed message.
        listOf("protocol"),
        // The seams a phone provides, and the key specs and policy they are made with.
        listOf("device"),
        // BioAuthException and the one mapping of platform failures to it.
        listOf("errors"),
        // The Android library's seams over the platform (bioauthkit-core cannot name it: Gradle).
        listOf("platform.android"),
        // The client an app holds, its flows and their machinery (keys, vault, records, connection).
        listOf("client"),
    )

    private val rank: Map<String, Int> = layers.flatMapIndexed { index, packages -> packages.map { it to index } }.toMap()

    @Test
    fun `every package of the SDK has a layer`() {
        val unplaced = sources().map { it.pkg }.toSet() - rank.keys
        assertTrue(unplaced.isEmpty(), "packages without a layer in ArchitectureTest.layers: $unplaced")
    }

    @Test
    fun `no package names a type of a package above it`() {
        val upward = sources().flatMap { source ->
            val own = rank[source.pkg] ?: return@flatMap emptyList()
            source.references().filter { (rank[it.pkg] ?: -1) > own }.map { "${source.path} names ${it.name} (${it.pkg})" }
        }.distinct()
        assertTrue(upward.isEmpty(), "arrows up:\n" + upward.joinToString("\n"))
    }

    /** A reference to a name under `com.bioauth.kit`: its package (`client`) and the name as written. */
    private data class Reference(val pkg: String, val name: String)

    /** One Kotlin file: its path under `android/`, its package under `com.bioauth.kit`, its code without comments. */
    private class Source(val path: String, val pkg: String, val code: String) {
        /** The names of the SDK's packages this file writes out, in imports or in full. */
        fun references(): List<Reference> = NAME.findAll(code).map { Reference(it.groupValues[1], it.value) }.toList()
    }

    /** The main sources of bioauthkit-core and of the Android library. */
    private fun sources(): List<Source> {
        val docs = File(System.getenv("BIOAUTH_TEST_VECTORS") ?: "docs/test-vectors.json").absoluteFile.parentFile
        val android = File(docs.parentFile, "android")
        val files = listOf("bioauthkit-core", "bioauthkit").flatMap { module ->
            File(android, "$module/src/main/kotlin").walk().filter { it.extension == "kt" }.toList()
        }
        assertTrue(files.size > 40, "the SDK's sources were not found under $android")
        return files.sorted().map { file ->
            val code = file.readText().replace(BLOCK_COMMENT, "").replace(LINE_COMMENT, "")
            val pkg = PACKAGE.find(code)?.groupValues?.get(1) ?: ""
            Source(file.relativeTo(android).path, pkg, code)
        }
    }

    private companion object {
        val PACKAGE = Regex("""(?m)^package com\.bioauth\.kit\.([a-z.]+)""")

        /** `com.bioauth.kit.` then the package (lower-case words) and the name in it. */
        val NAME = Regex("""\bcom\.bioauth\.kit\.([a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*)*)\.[A-Z*]\w*""")
        val BLOCK_COMMENT = Regex("""/\*[\s\S]*?\*/""")

        /** A `//` comment: not one inside a string (`"https://…"`), which follows a letter or a colon. */
        val LINE_COMMENT = Regex("""(?m)(?<![:"\w])//.*$""")
    }
}
