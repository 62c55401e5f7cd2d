extension SequenceHTML {
    /// The page's style: lanes are equal grid columns after the time column.
    static let style = """
        *{box-sizing:border-box}
        body{margin:0;font:13px/1.35 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2330;background:#fff}
        header{position:sticky;top:0;z-index:2;background:#f6f7f9;border-bottom:1px solid #ccd;padding:6px 10px 0}
        h1{font-size:14px;margin:0 0 2px}
        .meta{margin:0 0 4px;color:#556}
        nav{display:flex;gap:10px;align-items:center;flex-wrap:wrap;margin-bottom:4px}
        nav input[type=number]{width:6em}
        #first-failure{color:#b00020;font-weight:600}
        #faults{margin:0 0 4px;padding:0;list-style:none;display:flex;gap:8px;flex-wrap:wrap}
        .offline-window{background:repeating-linear-gradient(45deg,#fbd5d5 0 5px,#fff0f0 5px 10px);padding:0 6px;border-radius:3px}
        .g,.i,h2{display:grid;grid-template-columns:var(--cols)}
        #lanes{font-weight:600;padding:3px 0}
        #lanes span{text-align:center}
        #lanes .t{text-align:left;color:#556;font-weight:400}
        .lane.client{color:#1f5fbf}.lane.network{color:#8a5a00}.lane.server{color:#2e7d32}.lane.other{color:#6a3fa0}
        main{position:relative;padding:0 10px 40px}
        #lines{position:absolute;top:0;bottom:0;left:10px;right:10px;pointer-events:none}
        #lines span+span{background:linear-gradient(#d5d9e0,#d5d9e0) center/1px 100% no-repeat}
        .chunk{content-visibility:auto;contain-intrinsic-size:auto 3000px}
        section.step{position:relative;border-top:1px solid #dde;padding-bottom:2px}
        section.step[hidden]{display:none}
        h2{margin:0;font-size:12px;font-weight:600;background:rgba(230,236,245,.85);cursor:pointer}
        h2 .in{grid-column:2/-2;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-family:ui-monospace,monospace}
        h2 .st{grid-column:-2/-1;text-align:right;padding-right:6px}
        .step.expectFailed h2,.step.scriptError h2{background:rgba(253,226,226,.95)}
        .step.expectFailed .st,.step.scriptError .st{color:#b00020}
        .step.interrupted h2{background:rgba(255,243,205,.95)}
        .step:target h2{outline:2px solid #b00020}
        .i::before,h2::before{content:attr(data-t);font-weight:400;color:#667;font-family:ui-monospace,monospace;font-size:11px;padding-left:2px}
        .i{min-height:17px;cursor:pointer}
        .i:hover{background:#eef3ff}
        .i.off{background:repeating-linear-gradient(45deg,#fde6e6 0 5px,#fff6f6 5px 10px)}
        .i p{margin-top:0;margin-bottom:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-size:12px;text-align:center;position:relative}
        .i p:not(.ar){justify-self:center;max-width:100%;padding:0 5px;border-radius:8px;background:#eef0f4;white-space:normal;overflow-wrap:anywhere}
        .i p.ar{border-bottom:2px solid #5b6b86;padding:0 8px;overflow:visible;text-overflow:clip}
        .i p.ar::after{content:"▶";position:absolute;right:-5px;bottom:-8px;font-size:11px;line-height:1;color:#5b6b86}
        .i p.ar.rl::after{content:"◀";left:-5px;right:auto}
        em{font-style:normal;margin-left:6px;color:#2e7d32}
        .req p.ar{border-color:#2e7d32}
        .call p.ar{border-color:#6a3fa0;border-bottom-style:dashed}
        .ws p.ar{border-bottom-style:dotted}
        .frame p.ar{border-color:#1f5fbf;border-bottom-style:dashed}.frame p.ar::after{color:#1f5fbf}
        .err p.ar{border-color:#c66900}.err em{color:#c66900;font-weight:600}
        .lost p.ar{border-color:#b00020;border-bottom-style:dashed}.lost p.ar::after{content:"✕";color:#b00020;font-weight:700}
        .lost em{color:#b00020;font-weight:600}
        .lost p:not(.ar){background:#fde2e2;color:#b00020}
        .fault p{background:#fff0c2;color:#7a4f00;font-weight:600}
        .restart p{background:#e8dcf7;color:#4d2a80;font-weight:600}
        .state p{background:#e3edf9}
        .fresh p{background:#dcf3de}
        .cached p{background:#f0f0f0;color:#555}
        .msg p{background:#fff7e0}
        .provider p{background:#efe6fb}
        .collapse .i.rep{display:none}
        .collapse .i p[data-run]::before{content:"×" attr(data-run) " ";font-weight:700;color:#8a5a00}
        #detail{position:fixed;right:10px;bottom:10px;width:min(46em,90vw);max-height:45vh;overflow:auto;z-index:3;background:#fff;border:1px solid #99a;box-shadow:0 2px 10px rgba(0,0,0,.2);padding:6px 10px}
        #detail pre{margin:0;white-space:pre-wrap;word-break:break-all;font:12px/1.4 ui-monospace,monospace}
        #close{float:right}
        """

    /// The page's behaviour: details, zoom to a step range, collapsing. It
    /// reads the page only; text goes in with `textContent`, never as HTML.
    static let script = """
        (function(){
        var steps=document.querySelectorAll('section.step');
        var panel=document.getElementById('detail'),pre=panel.querySelector('pre');
        function describe(el){
          var sec=el.closest('section.step');
          var head=sec?'step '+sec.dataset.n+' · '+(el.dataset.t||''):'';
          if(el.tagName==='H2')return head+'\\n'+el.querySelector('.in').textContent+' — '+el.querySelector('.st').textContent+'\\n\\n'+(el.dataset.d||'(no output)');
          return head+'\\n'+el.dataset.d;
        }
        document.addEventListener('mouseover',function(ev){
          var el=ev.target.closest('[data-d]');
          if(el&&!el.title)el.title=describe(el).slice(0,1500);
        });
        document.addEventListener('click',function(ev){
          var el=ev.target.closest('[data-d]');
          if(!el)return;
          pre.textContent=describe(el);panel.hidden=false;
        });
        document.getElementById('close').onclick=function(){panel.hidden=true;};
        function show(from,to){
          for(var i=0;i<steps.length;i++){var n=+steps[i].dataset.n;steps[i].hidden=n<from||n>to;}
        }
        document.getElementById('zoom').onclick=function(){
          show(+document.getElementById('from').value||1,+document.getElementById('to').value||Infinity);
        };
        document.getElementById('all').onclick=function(){show(1,Infinity);};
        document.getElementById('collapse').onchange=function(ev){document.body.classList.toggle('collapse',ev.target.checked);};
        var m=/^#steps=(\\d+)-(\\d+)$/.exec(location.hash);
        if(m){document.getElementById('from').value=m[1];document.getElementById('to').value=m[2];show(+m[1],+m[2]);}
        var first=document.getElementById('first-failure');
        if(first)first.onclick=function(){show(1,Infinity);};
        document.body.dataset.ready='1';
        })();
        """
}
