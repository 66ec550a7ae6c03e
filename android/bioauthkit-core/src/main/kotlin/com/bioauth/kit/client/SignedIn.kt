package com.bioauth.kit.client

import com.bioauth.kit.protocol.Session
import com.bioauth.kit.protocol.User

/** A signed-in session: the user, the session, and what reconciling with the server found. */
public data class SignedIn(
    /** Who signed in. */
    val user: User,
    /** The new session (its token stays inside the client: `BioAuthClient.sessionToken`). */
    val session: Session,
    /** What this sign-in cleaned up, if anything. */
    val reconciliation: ReconciliationAction? = null,
)
