import * as esbuild from 'esbuild';
const r = await esbuild.build({ entryPoints: ['extension/extension.ts'], bundle: true, minify: true, metafile: true, write: false, platform: 'node', format: 'cjs', external: ['vscode','./driverClasses','./acpSdk'], target: 'node20' });
const out = Object.values(r.metafile.outputs)[0];
const rows = Object.entries(out.inputs).map(([k,v])=>[k,v.bytesInOutput]).sort((a,b)=>b[1]-a[1]);
const dirs = {};
for (const [k,b] of rows) { const d = k.split('/').slice(0,3).join('/'); dirs[d]=(dirs[d]??0)+b; }
console.log(Object.entries(dirs).sort((a,b)=>b[1]-a[1]).slice(0,40).map(([d,b])=>`${(b/1024).toFixed(1)}\t${d}`).join('\n'));
console.log('---');
console.log(rows.filter(([k])=>k.startsWith('extension/ui')).slice(0,60).map(([k,b])=>`${(b/1024).toFixed(1)}\t${k}`).join('\n'));
