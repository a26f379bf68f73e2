#!/usr/bin/env python3
# Compares the tensor-mem-plan reports of two memplan-opt builds on every
# shared net, ignoring the fields NEWF that a change adds on purpose:
#   scripts/compare-reports.py OLD/bin/memplan-opt NEW/bin/memplan-opt [models-dir]
import json,subprocess,sys,glob,os,tempfile
TMP=tempfile.mkdtemp(prefix='memplan-reports-')
old,new=sys.argv[1],sys.argv[2]
NEWF={"certified_lower_bound","gap","kind","offsets","total_size","object_ids","object_sizes","objects_lower_bound"}
# Schema 1's copies (schema 2 dropped them; include/memplan/Core/Report.h).
def schema2(r):
    r.pop('schema_version',None)
    for f in r['functions']:
        for a in f['arenas']:
            a.get('peak',{}).pop('bytes',None)
    return r
diffs=0
for m in sorted(glob.glob(os.path.join(sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__), '..', '..', 'shared', 'models'), '*.mlir'))):
    n=os.path.basename(m)[:-5]
    b=f'{TMP}/{n}.buf.mlir'
    if not os.path.exists(b):
        subprocess.run([new,m,'--one-shot-bufferize=bufferize-function-boundaries','-o',b],check=True)
    reps=[]
    for tool,tag in [(old,'old'),(new,'new')]:
        out=f'{TMP}/{n}.{tag}.json'
        subprocess.run([tool,b,f'--tensor-mem-plan=report={out}','-o','/dev/null'],check=True)
        reps.append(schema2(json.load(open(out))))
    def strip(r):
        for f in r['functions']:
            f.pop('weights',None)  # read-only data (tensor-mem-hoist-constants)
            for a in f['arenas']:
                for k in NEWF: a.pop(k,None)
                for b in a['buffers']: b.pop('inplace_of',None)
        return r
    a,c=strip(reps[0]),strip(reps[1])
    same = a==c
    diffs += not same
    ar=reps[1]['functions'][0]['arenas'][0] if reps[1]['functions'][0]['arenas'] else {}
    print(n, 'same' if same else 'DIFF', ar.get('arena_size'), ar.get('lower_bound'))
print('diffs',diffs)
sys.exit(1 if diffs else 0)
