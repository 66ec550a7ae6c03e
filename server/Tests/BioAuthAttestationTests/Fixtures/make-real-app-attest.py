#!/usr/bin/env python3
# Rebuilds real-app-attest.json beside this file from published App Attest captures:
#   ./make-real-app-attest.py PATH-TO-veehaitch/devicecheck-appattest-CLONE APPLE-GUIDE-BASE64-FILE
# The first: its src/test/resources/ios-*.yaml at VEEHAITCH (Apache-2.0; attestations and
# assertions a development build made on iOS 14.2 to 14.4). The second: the attestation object of
# Apple's "Attestation object validation guide" (a production build), as takimoto3/app-attest
# apple_guide_test.go (MIT) quotes it at TAKIMOTO3.
import json, subprocess, os, sys, base64, hashlib, yaml
VEEHAITCH='cb26211f63c1e2e7949deafe2efdf352daca27fa'; TAKIMOTO3='9d7551c05804d3e35d5477b5aed1d82d8f8a2035'
repo, guide = sys.argv[1], sys.argv[2]
OUT=os.path.dirname(os.path.abspath(__file__))
files=sorted(f for f in subprocess.check_output(['git','-C',repo,'ls-tree','--name-only',VEEHAITCH,'src/test/resources/']).decode().split() if f.endswith('.yaml'))
attestations=[]; assertions=[]
for f in files:
    docs=list(yaml.safe_load_all(subprocess.check_output(['git','-C',repo,'show',f'{VEEHAITCH}:{f}'])))
    att=next(d for d in docs if d and d.get('type')=='attestation'); ass=next(d for d in docs if d and d.get('type')=='assertion')
    name='veehaitch/'+os.path.basename(f)[:-5]
    app=att['teamIdentifier']+'.'+att['bundleIdentifier']
    pem=''.join(att['publicKey'].split('\n')[1:-2])
    point=base64.b64decode(pem)[-65:]
    assert base64.b64encode(hashlib.sha256(point).digest()).decode()==att['keyIdBase64']
    source=f'veehaitch/devicecheck-appattest@{VEEHAITCH} {f}'
    attestations.append({'name':name,'source':source,'app_id':app,'environment':att['environment'],
        'key_id_base64':att['keyIdBase64'],'client_data_hash_base64':att['clientDataHashSha256Base64'],
        'verify_at':att['timestamp'],'object_base64':att['attestationBase64'],'public_key_base64':base64.b64encode(point).decode()})
    assertions.append({'name':name,'source':source,'app_id':app,'key_id_base64':ass['keyIdBase64'],
        'public_key_base64':base64.b64encode(point).decode(),'client_data_hash_base64':ass['clientDataHashSha256Base64'],
        'previous_counter':ass['counter']-1,'expected_counter':ass['counter'],'assertion_base64':ass['assertionBase64']})
obj=open(guide).read().strip()
point=base64.b64decode('MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEQzJUSs8yPbd0RDyq8zn1bn6VxyT6wsFCWfNl4kRWULK1+yhbz1Sby2BZRBLnaCokJ+6tqftS3+0LGrF+0J+pvQ==')[-65:]
attestations.append({'name':'apple/attestation-object-validation-guide',
    'source':f'https://developer.apple.com/documentation/devicecheck/attestation-object-validation-guide, as takimoto3/app-attest@{TAKIMOTO3} apple_guide_test.go quotes it',
    'app_id':'1234567890.com.example.myapp','environment':'production',
    'key_id_base64':base64.b64encode(hashlib.sha256(point).digest()).decode(),
    # The guide's vector reproduces only with the challenge's bytes as clientDataHash (the bytes the app passed to attestKey).
    'client_data_hash_base64':base64.b64encode(b'example_server_challenge').decode(),
    'verify_at':'2026-04-21T18:13:12Z','object_base64':obj,'public_key_base64':base64.b64encode(point).decode()})
manifest={'about':'App Attest attestations and assertions made by real iPhones, as their publishers captured them, copied as data with provenance: verified at verify_at (inside the credential certificate\'s few days of validity; the guide gives no time) against Apple\'s App Attestation Root CA, for the app id and environment given. Every one is accepted; the tests derive each refusal from them.',
    'attestations':attestations,'assertions':assertions}
json.dump(manifest,open(os.path.join(OUT,'real-app-attest.json'),'w'),indent=1)
