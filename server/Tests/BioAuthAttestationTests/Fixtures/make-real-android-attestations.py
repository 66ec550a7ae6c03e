#!/usr/bin/env python3
# Rebuilds android/ and real-android-attestations.json beside this file from a clone of
# https://github.com/android/keyattestation (its testdata/ at COMMIT):
#   ./make-real-android-attestations.py PATH-TO-CLONE
# The expected verdicts follow the verifier's order of checks, derived here from the upstream
# project's own decoding of each chain (its JSON files), not from the Swift parser.
import json, subprocess, os, sys, datetime
REPO=sys.argv[1]; COMMIT='47f970d044ae4da7b00da068e7e1a4e952b0fd2f'
OUT=os.path.dirname(os.path.abspath(__file__))
def show(p): return subprocess.check_output(['git','-C',REPO,'show',f'{COMMIT}:{p}'])
files=subprocess.check_output(['git','-C',REPO,'ls-tree','-r','--name-only',COMMIT,'testdata']).decode().split()
entries=[]
untrusted={'marlin/sdk29/TEE_EC_NONE':'chained to the Android Keystore Software Attestation Root, not to Google\'s hardware roots',
           'marlin/sdk29/TEE_RSA_NONE':'chained to the Android Keystore Software Attestation Root, not to Google\'s hardware roots; its CAs hold 1024-bit RSA keys, which the server cannot read (the refusal names them)',
           'invalid/tags_not_in_ascending_order':'its leaf was altered after signing (upstream: tags out of order); the signature no longer verifies'}
malformed={}
unsupported={'tokay/sdk37/TEE_MLDSA_FACTORY':'its leaf certifies an ML-DSA-65 key, which the server does not read: refused after its chain verified',
           'tokay/sdk37/TEE_MLDSA_RKP':'its leaf certifies an ML-DSA-65 key, which the server does not read: refused after its chain verified'}
# Upstream has no JSON for this real chain; its ExtensionTest parseFrom_malformedRotDeviceLocked_successfullyParsed
# reads deviceLocked as true. Decoded here from the leaf (openssl asn1parse).
ber_boolean='invalid/malformed_rot_device_locked'
ber_boolean_description={'attestation_version':3,'security_level':'TRUSTED_ENVIRONMENT','attestation_security_level':'TRUSTED_ENVIRONMENT',
    'creation_date_time':1770995300000,'packages':['com.google.android.apps.photos'],
    'signature_digests_base64':['PXoSIwGao52eoONDarfAiWv7T7Z59N5f58I/MmyPmUo='],
    'purposes':[2],'algorithm':3,'user_auth_type':None,'auth_timeout':None,'no_auth_required':True,
    'os_patch_level':202207,'device_locked':True,'verified_boot_state':'VERIFIED'}
times={'blueline':'made in 2018 and verified on 2026-11-27, after the chain\'s own 2016 certificate of Google\'s root key expired: the anchor is the shipped 2022 certificate of that key',
       'sony-xperia10-iii':'its factory-provisioned intermediates expired on 2026-05-24, before the key was made: accepted, as Google\'s verifier accepts them, because such keys are revoked rather than rotated'}
def iso(ms): return datetime.datetime.fromtimestamp(int(ms)/1000, datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')
for f in sorted(files):
    if not f.endswith('.pem'): continue
    name=f[len('testdata/'):-4]
    if name in ('allow_while_on_body','p256_sha384_intermediate'): continue  # not a chain to a root
    dest=os.path.join(OUT,'android',name+'.pem'); os.makedirs(os.path.dirname(dest),exist_ok=True)
    open(dest,'wb').write(show(f))
    e={'name':name,'file':'android/'+name+'.pem','source':f'android/keyattestation@{COMMIT} {f}'}
    jf=f[:-4]+'.json'
    if jf in files:
        j=json.loads('\n'.join(l for l in show(jf).decode().splitlines() if not l.lstrip().startswith('//'))); sw=j['softwareEnforced']; hw=j['hardwareEnforced']
        e['verify_at']=iso(sw['creationDateTime'])
        if name.startswith('blueline/'): e['verify_at']='2026-11-27T00:00:00Z'
        e['challenge_base64']=j['attestationChallenge']
        rot=hw.get('rootOfTrust',{})
        e['description']={'attestation_version':int(j['attestationVersion']),'security_level':j['keyMintSecurityLevel'],
            'attestation_security_level':j['attestationSecurityLevel'],
            'creation_date_time':int(sw['creationDateTime']),
            'packages':[p['name'] for p in sw.get('attestationApplicationId',{}).get('packages',[])],
            'signature_digests_base64':sw.get('attestationApplicationId',{}).get('signatures',[]),
            'purposes':sorted(int(p) for p in hw.get('purposes',[])),'algorithm':int(hw['algorithms']),
            'user_auth_type':int(hw['userAuthType']) if 'userAuthType' in hw else None,
            'auth_timeout':int(hw['authTimeout']) if 'authTimeout' in hw else None,
            'no_auth_required':bool(hw.get('noAuthRequired',False)),
            'os_patch_level':int(hw['osPatchLevel']) if 'osPatchLevel' in hw else None,
            'device_locked':rot.get('deviceLocked'),'verified_boot_state':rot.get('verifiedBootState')}
        d=e['description']
        def verdict(kind):
            if name in malformed: return 'evidence_malformed'
            if name in untrusted: return 'chain_untrusted'
            if name in unsupported: return 'unsupported_key_type'
            if d['security_level']=='SOFTWARE' or d['security_level']!=d['attestation_security_level']: return 'not_secure_hardware'
            if hw.get('origin')!='GENERATED' or 2 not in d['purposes'] or d['algorithm']!=3: return 'key_properties'
            # A PIN key needs the unlocked-device rule unless attested on Android 12 to 14 (osVersion 120000 to 149999).
            os_version=int(hw.get('osVersion', sw.get('osVersion', 0)))
            if kind=='pin': return 'usable_while_locked' if not (hw.get('unlockedDeviceRequired') or sw.get('unlockedDeviceRequired') or 120000<=os_version<150000) else 'accepted'
            ok = not d['no_auth_required'] and d['user_auth_type']==2 and (d['auth_timeout'] or 0)==0
            return 'not_biometric_per_use' if not ok else 'accepted'
        e['expected']={'pin':verdict('pin'),'biometric':verdict('biometric')}
        e['why']=malformed.get(name) or untrusted.get(name) or unsupported.get(name) or 'a real chain from a test app: no public capture is a per-use biometric or unlocked-device key of an allowed app'
        if name.split('/')[0] in times: e['why']+='; '+times[name.split('/')[0]]
    else:
        e['verify_at']='2025-01-01T00:00:00Z'
        if name==ber_boolean:
            e['verify_at']='2026-02-13T15:08:20Z'
            e['challenge_base64']='AZsRWhf98ms3EwlGcIDQrsG1oMHGp6M1C5IFYGWfp5uXohp1Gpv58DEyO5klNhncxMMaSoq6AzUAYyFiDyxws+gPDFBPZHS19IeJj+WHfPLZ18LNJV4jX6c='
            e['description']=ber_boolean_description
            e['expected']={'pin':'usable_while_locked','biometric':'not_biometric_per_use'}
            e['why']=('a real factory-provisioned chain (Android 10, Keymaster 4, Google Photos) whose root of trust encodes deviceLocked '
                      'as a BER BOOLEAN (content 0x01, not DER\'s 0xFF): upstream\'s ExtensionTest parseFrom_malformedRotDeviceLocked_successfullyParsed '
                      'reads it as locked, and so does the server; upstream has no JSON for it, so description is decoded here from the leaf '
                      '(openssl asn1parse), verified at the key\'s creation time')
        else:
            e['expected']={'pin':'chain_untrusted','biometric':'chain_untrusted'}; e['why']=untrusted[name]
    entries.append(e)
manifest={'about':'Android Key Attestation chains captured from real devices (Pixel 3, 8a, 9 Pro, 9a, a Pixel XL with a software root, a Sony Xperia 10 III) as android/keyattestation publishes them in testdata/ (Apache-2.0), copied as data: each PEM file verbatim, with the upstream JSON\'s decoded fields, verified at verify_at: the key\'s creation time (as upstream\'s VerifierTest does) unless why says otherwise against Google\'s roots with no revocations, the allowed app being the capture\'s own, boot policy any. expected names the first refusal for a PIN key and for a biometric key, or accepted.','entries':entries}
json.dump(manifest,open(os.path.join(OUT,'real-android-attestations.json'),'w'),indent=1)
