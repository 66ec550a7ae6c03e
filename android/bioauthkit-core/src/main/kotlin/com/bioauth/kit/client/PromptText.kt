package com.bioauth.kit.client

/** What a biometric prompt says. */
public data class PromptText(
    /** The title (required by androidx.biometric). */
    val title: String,
    /** The negative button; not shown when the policy lets the device credential in (androidx allows one or the other). */
    val negativeButton: String = "Use password",
    /** The subtitle. */
    val subtitle: String? = null,
    /** The description. */
    val description: String? = null,
)
