/* SPDX-License-Identifier: MIT */
/*
** demo_html.c — `lodestar demo --html FILE`: one self-contained page (no
** network) with the time of each frame against the budget line and the
** p99, and the expansions of each frame, from the frame loop's arrays.
*/
#include "demo.h"

#include <stdlib.h>

static const char *const page[] = {
    "<!DOCTYPE html>\n",
    "<html lang=\"en\"><head><meta charset=\"utf-8\">\n",
    "<title>lodestar demo: @TITLE@</title>\n",
    "<style>\n",
    "body{margin:0;padding:10px;font:13px/1.4 sans-serif;background:#202428;color:#e8e8e8}\n",
    "h1{font-size:15px;margin:0 0 6px}canvas{display:block;background:#2c3136;margin:6px 0}\n",
    "table{border-collapse:collapse}td{padding:1px 8px}td.v{text-align:right;font-family:monospace}\n",
    ".key span{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px;vertical-align:middle}\n",
    "#hover{font-family:monospace;min-height:1.4em}\n",
    "</style></head><body>\n",
    "<h1>lodestar demo</h1><div id=\"title\"></div>\n",
    "<table>\n",
    "<tr><td>frames</td><td class=\"v\" id=\"p-frames\"></td><td>agents</td><td class=\"v\" id=\"p-agents\"></td></tr>\n",
    "<tr><td>budget</td><td class=\"v\"><span id=\"p-budget\"></span> &micro;s</td><td>time/frame p50</td><td class=\"v\"><span id=\"p-p50\"></span> &micro;s</td></tr>\n",
    "<tr><td>time/frame p99</td><td class=\"v\"><span id=\"p-p99\"></span> &micro;s</td><td>time/frame max</td><td class=\"v\"><span id=\"p-max\"></span> &micro;s</td></tr>\n",
    "<tr><td>frames over budget</td><td class=\"v\" id=\"p-over\"></td><td>expansions</td><td class=\"v\" id=\"p-expansions\"></td></tr>\n",
    "</table>\n",
    "<div class=\"key\"><span style=\"background:#6cb6ff\"></span>time per frame<span style=\"background:#ff4040\"></span>budget<span style=\"background:#ffb000\"></span>p99<span style=\"background:#50d070\"></span>expansions per frame</div>\n",
    "<canvas id=\"time\" width=\"1200\" height=\"260\"></canvas>\n",
    "<canvas id=\"exp\" width=\"1200\" height=\"160\"></canvas>\n",
    "<div id=\"hover\">(frame under the mouse)</div>\n",
    "<script type=\"application/json\" id=\"data\">@DATA@</script>\n",
    "<script>\n",
    "\"use strict\";\n",
    "(function(){\n",
    "var D=JSON.parse(document.getElementById(\"data\").textContent),F=D.frame_us.length;\n",
    "function $(id){return document.getElementById(id);}\n",
    "function plot(id,v,lines,col,bars){var c=$(id),x=c.getContext(\"2d\"),W=c.width,H=c.height,top=0,i;\n",
    " for(i=0;i<F;i++)if(v[i]>top)top=v[i];for(i=0;i<lines.length;i++)if(lines[i][0]>top)top=lines[i][0];top=top*1.08||1;\n",
    " x.fillStyle=\"#2c3136\";x.fillRect(0,0,W,H);x.fillStyle=\"#aaa\";x.font=\"11px sans-serif\";x.fillText(top.toFixed(1),4,12);\n",
    " var bw=W/Math.max(1,F);x.fillStyle=col;x.strokeStyle=col;x.beginPath();\n",
    " for(i=0;i<F;i++){var y=H-v[i]/top*H;if(bars)x.fillRect(i*bw,y,Math.max(1,bw-0.5),H-y);else if(i)x.lineTo(i*bw,y);else x.moveTo(0,y);}\n",
    " if(!bars)x.stroke();\n",
    " for(i=0;i<lines.length;i++){var ly=Math.round(H-lines[i][0]/top*H)+0.5;x.strokeStyle=lines[i][1];x.setLineDash([6,4]);x.beginPath();x.moveTo(0,ly);x.lineTo(W,ly);x.stroke();x.setLineDash([]);}\n",
    " c.onmousemove=function(e){var f=Math.floor((e.clientX-c.getBoundingClientRect().left)/bw);if(f>=0&&f<F)$(\"hover\").textContent=\"frame \"+f+\": \"+D.frame_us[f].toFixed(1)+\" \\u00b5s, \"+D.frame_exp[f]+\" expansions\";};}\n",
    "plot(\"time\",D.frame_us,[[D.budget_us,\"#ff4040\"],[D.p99,\"#ffb000\"]],\"#6cb6ff\",false);\n",
    "plot(\"exp\",D.frame_exp,[],\"#50d070\",true);\n",
    "$(\"title\").textContent=D.map+\", \"+D.agents+\" agents, algo \"+D.algo+(D.deterministic?\" (deterministic: budget counted in expansions)\":\"\");\n",
    "$(\"p-frames\").textContent=F;$(\"p-agents\").textContent=D.agents;$(\"p-budget\").textContent=D.budget_us;\n",
    "$(\"p-p50\").textContent=D.p50.toFixed(1);$(\"p-p99\").textContent=D.p99.toFixed(1);$(\"p-max\").textContent=D.max.toFixed(1);\n",
    "$(\"p-over\").textContent=D.over;var t=0;for(var i=0;i<F;i++)t+=D.frame_exp[i];$(\"p-expansions\").textContent=t;\n",
    "})();\n",
    "</script></body></html>\n",
    0};

typedef struct HtmlData {
  const Demo *d;
  const DemoOpts *o;
  const DemoRun *r;
  double p50, p99, max;
  unsigned long over;
} HtmlData;

static void data(FILE *f, void *ud) {
  const HtmlData *h = (const HtmlData *)ud;
  long i;
  fputs("{\"map\":", f);
  cli_html_string(f, h->o->map_path);
  fprintf(f, ",\"agents\":%ld,\"budget_us\":%ld,\"algo\":\"%s\",\"deterministic\":%s,", h->o->agents,
          h->o->budget, lds_algo_name(h->o->algo), h->o->det ? "true" : "false");
  /* %.1f as the summary prints them, so the page shows the same digits */
  fprintf(f, "\"p50\":%.1f,\"p99\":%.1f,\"max\":%.1f,\"over\":%lu,\"frame_us\":[", h->p50, h->p99,
          h->max, h->over);
  for (i = 0; i < h->r->frames; i++) fprintf(f, "%s%.1f", i ? "," : "", h->r->frame_us[i]);
  fputs("],\"frame_exp\":[", f);
  for (i = 0; i < h->r->frames; i++) fprintf(f, "%s%.0f", i ? "," : "", h->r->frame_exp[i]);
  fputs("]}", f);
}

bool demo_html(const Demo *d, const DemoOpts *o, const DemoRun *r) {
  HtmlData h;
  size_t n = r->frames > 0 ? (size_t)r->frames : 0, k;
  double *sorted = (double *)malloc((n ? n : 1) * sizeof *sorted);
  bool ok;
  if (!sorted) {
    cli_fail(CMD, "--html: out of memory");
    return false;
  }
  h.d = d, h.o = o, h.r = r, h.over = 0;
  for (k = 0; k < n; k++) {
    sorted[k] = r->frame_us[k];
    if (r->frame_us[k] > (double)o->budget) h.over++;
  }
  h.p50 = cli_quantile(sorted, n, 0.5);
  h.p99 = cli_quantile(sorted, n, 0.99);
  h.max = cli_quantile(sorted, n, 1.0);
  free(sorted);
  ok = cli_html_write(CMD, o->html_path, page, o->map_path, data, &h);
  if (ok && !o->json) printf("demo: wrote %s\n", o->html_path);
  return ok;
}
