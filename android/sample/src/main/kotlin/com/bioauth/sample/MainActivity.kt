package com.bioauth.sample

import androidx.fragment.app.FragmentActivity
import androidx.lifecycle.DefaultLifecycleObserver
import androidx.lifecycle.LifecycleOwner
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.Job
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.cancel
import kotlinx.coroutines.launch

/**
 * The sample's one screen. It hosts the biometric prompt (androidx.biometric needs a
 * FragmentActivity) and walks the iOS sample's flow: a returning user signs in with biometrics
 * (one prompt); a new one signs up, signs in with the password, turns biometric sign-in on (one
 * prompt) and sets a PIN kept behind biometrics (one prompt); signed in, it loads the balance from
 * the bank's own API with an access token ([BankApi], no prompt) and goes through the bank's pending
 * confirmations (one prompt each, showing what is approved). The title bar shows where it is.
 * Closing the screen cancels the flow, which dismisses a prompt on screen.
 */
class MainActivity : FragmentActivity() {
    private val scope = CoroutineScope(SupervisorJob() + Dispatchers.Main)
    private var flow: Job? = null

    init {
        // Prompts show over this activity, attached in onCreate as androidx asks; after a rotation,
        // a prompt on screen reports here.
        lifecycle.addObserver(object : DefaultLifecycleObserver {
            override fun onCreate(owner: LifecycleOwner) {
                SampleAuth.get(this@MainActivity).prompts.attach(this@MainActivity)
            }
        })
    }

    override fun onStart() {
        super.onStart()
        val auth = SampleAuth.get(this)
        if (flow?.isActive == true || auth.user != null) return
        flow = scope.launch {
            if (auth.biometricsEnabled()) {
                auth.signInWithBiometrics()
            } else {
                auth.signUp(DEMO_USER, DEMO_PASSWORD)
                auth.signIn(DEMO_USER, DEMO_PASSWORD)
                if (auth.user != null) {
                    auth.enableBiometrics()
                    auth.setPIN(DEMO_PIN)
                }
            }
            // Load balance from the bank's API: its own backend, called with an access token.
            if (auth.user != null) auth.loadBalance()
            if (auth.user != null) confirm(auth)
            val signedIn = auth.user?.let { user -> "Signed in as ${user.username}" + (auth.balance?.let { " · balance $it" } ?: "") }
            setTitle(auth.message ?: signedIn ?: "Signed out")
        }
    }

    /**
     * The bank's pending confirmations, each shown by the text this phone derived from it (the
     * title bar here; a real app lists them with Approve and Decline buttons) and approved with one
     * prompt carrying that text, whose negative button declines it. One this phone refuses to show
     * is left pending.
     */
    private suspend fun confirm(auth: SampleAuth) {
        auth.loadConfirmations()
        for (confirmation in auth.confirmations) {
            val text = confirmation.text ?: continue
            setTitle("To approve: ${text.text.replace("\n", " · ")}")
            val approved = auth.approveOrDecline(confirmation)
            setTitle(auth.message ?: if (approved) "Approved: ${text.title}" else "Declined: ${text.title}")
        }
    }

    override fun onDestroy() {
        if (isFinishing) scope.cancel()
        super.onDestroy()
    }

    private companion object {
        const val DEMO_USER = "sample-user"
        const val DEMO_PASSWORD = "correct horse battery staple"
        const val DEMO_PIN = "482913"
    }
}
