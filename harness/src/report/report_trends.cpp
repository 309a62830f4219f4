#include "report/report_trends.hpp"

#include "history/history_baseline.hpp"
#include "history/history_store.hpp"
#include "history/saved_detector.hpp"
#include "history/series_changes.hpp"
#include "json_text.hpp"
#include "metrics/number_format.hpp"
#include "report/report_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace aorta::detail {
namespace {

// Five significant digits: the hover's precision, and what keeps a point near 30 bytes.
std::string compact(double value) {
  return fmt::format("{:.5g}", value);
}

double trend_quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const double at = q * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(at));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (values[above] - values[below]) * (at - static_cast<double>(below));
}

// One segment between changes: [first, last] points, median and middle half of its samples.
std::string segment_json(const series_analysis& analysis, std::size_t first, std::size_t last) {
  std::vector<double> samples;
  for (std::size_t i = first; i <= last; ++i) {
    samples.insert(samples.end(), analysis.commits[i].samples.begin(),
                   analysis.commits[i].samples.end());
  }
  return fmt::format("[{},{},{},{},{}]", first, last, compact(median_of(samples)),
                     compact(trend_quantile(samples, 0.25)),
                     compact(trend_quantile(samples, 0.75)));
}

std::string trend_series_json(const series_analysis& analysis,
                              std::map<std::string, std::size_t>& commit_index,
                              std::vector<std::string>& commits) {
  std::string points;
  for (const auto& commit : analysis.commits) {
    auto [at, fresh] = commit_index.try_emplace(commit.commit, commits.size());
    if (fresh) commits.push_back(commit.commit);
    const auto [low, high] = std::minmax_element(commit.samples.begin(), commit.samples.end());
    points += fmt::format("{}[{},{},{},{},{}]", points.empty() ? "" : ",", at->second,
                          commit.samples.size(), compact(median_of(commit.samples)), compact(*low),
                          compact(*high));
  }
  std::string segments;
  std::string changes;
  std::size_t first = 0;
  for (const auto& change : analysis.changes) {
    segments += segment_json(analysis, first, change.commit_index - 1) + ",";
    changes += fmt::format("{}[{},{},{}]", changes.empty() ? "" : ",", change.commit_index,
                           std::isfinite(change.delta_percent)
                               ? fmt::format("{:.2f}", change.delta_percent)
                               : std::string("null"),
                           compact(change.p));
    first = change.commit_index;
  }
  const std::size_t last = analysis.commits.size() - 1;
  segments += segment_json(analysis, first, last);
  // The window `--baseline history` takes on this series alone (history_baseline.hpp).
  const std::size_t newest = static_cast<std::size_t>(default_history_baseline_commits);
  const std::size_t baseline_first = std::max(first, last + 1 > newest ? last + 1 - newest : 0);
  return fmt::format("{{\"t\":{},\"q\":{},\"u\":{},\"k\":{},\"p\":[{}],\"g\":[{}],\"x\":[{}],"
                     "\"b\":[{},{}]}}",
                     dump_json(analysis.key.test), dump_json(analysis.key.quantity),
                     dump_json(analysis.key.unit), dump_json(analysis.key.card), points, segments,
                     changes, baseline_first, last);
}

constexpr std::string_view trend_style =
    R"(<style>
div.trend{margin:0.2em 0 1em}
svg.trend-chart .band{fill:#4a78b5;opacity:0.15}
svg.trend-chart .base{fill:none;stroke:#2e7d32;stroke-dasharray:4 3}
svg.trend-chart .seg{stroke:#4a78b5;stroke-width:2}
svg.trend-chart .chg{stroke:#c62828;stroke-dasharray:3 3}
svg.trend-chart .spread{stroke:#888;stroke-width:1}
svg.trend-chart .med{stroke:#222;stroke-width:2}
svg.trend-chart text{font-size:11px}
#trend-tip{position:absolute;display:none;background:#fffbe6;border:1px solid #aaa;padding:0.2em 0.5em;font:12px ui-monospace,monospace;pointer-events:none}
</style>
)";

// Draws each div.trend from the JSON block; the hover line shows the nearest commit's values.
constexpr std::string_view trend_script = R"(<script>
(function(){
var D=JSON.parse(document.getElementById('aorta-trends').textContent);
var tip=document.getElementById('trend-tip'),NS='http://www.w3.org/2000/svg';
function el(n,a,p){var e=document.createElementNS(NS,n);for(var k in a)e.setAttribute(k,a[k]);p.appendChild(e);return e;}
function fmt(v){return Number(v).toPrecision(5);}
document.querySelectorAll('div.trend').forEach(function(box){
var s=D.s[+box.dataset.i],p=s.p,n=p.length,W=900,H=170,L=70,R=10,T=12,B=18,lo=Infinity,hi=-Infinity;
p.forEach(function(q){lo=Math.min(lo,q[3]);hi=Math.max(hi,q[4]);});
s.g.forEach(function(g){lo=Math.min(lo,g[3]);hi=Math.max(hi,g[4]);});
if(hi===lo){var d0=Math.abs(hi)*0.01||1;hi+=d0;lo-=d0;}
function X(i){return L+(n<2?(W-L-R)/2:i*(W-L-R)/(n-1));}
function Y(v){return T+(hi-v)*(H-T-B)/(hi-lo);}
var svg=el('svg',{viewBox:'0 0 '+W+' '+H,'class':'chart trend-chart',role:'img','aria-label':s.t+' '+s.q},box);
el('text',{x:2,y:T+4},svg).textContent=fmt(hi);el('text',{x:2,y:H-B},svg).textContent=fmt(lo);
el('rect',{x:X(s.b[0])-3,y:T,width:X(s.b[1])-X(s.b[0])+6,height:H-T-B,'class':'base'},svg);
el('text',{x:X(s.b[0]),y:H-4},svg).textContent='baseline window';
s.g.forEach(function(g){el('rect',{x:X(g[0]),y:Y(g[4]),width:Math.max(1,X(g[1])-X(g[0])),height:Math.max(1,Y(g[3])-Y(g[4])),'class':'band'},svg);
el('line',{x1:X(g[0]),x2:Math.max(X(g[0])+1,X(g[1])),y1:Y(g[2]),y2:Y(g[2]),'class':'seg'},svg);});
s.x.forEach(function(x){var at=X(x[0]-0.5);el('line',{x1:at,x2:at,y1:T,y2:H-B,'class':'chg'},svg);
el('text',{x:at+3,y:T+10},svg).textContent=(x[1]===null?'n/a':(x[1]>0?'+':'')+x[1].toFixed(2)+'%')+' p '+x[2];});
var d='',m='';p.forEach(function(q,i){var x=X(i);d+='M'+x.toFixed(1)+' '+Y(q[4]).toFixed(1)+'V'+Y(q[3]).toFixed(1);m+='M'+(x-1.5).toFixed(1)+' '+Y(q[2]).toFixed(1)+'h3';});
el('path',{d:d,'class':'spread'},svg);el('path',{d:m,'class':'med'},svg);
svg.addEventListener('mousemove',function(ev){var r=svg.getBoundingClientRect(),x=(ev.clientX-r.left)*W/r.width;
var i=n<2?0:Math.round((x-L)*(n-1)/(W-L-R));i=Math.max(0,Math.min(n-1,i));var q=p[i];
tip.textContent=D.c[q[0]]+'  median '+fmt(q[2])+' '+s.u+' ('+fmt(q[3])+'..'+fmt(q[4])+', '+q[1]+' sample(s))';
tip.style.left=(ev.pageX+12)+'px';tip.style.top=(ev.pageY+12)+'px';tip.style.display='block';});
svg.addEventListener('mouseleave',function(){tip.style.display='none';});});
})();
</script>
)";

}  // namespace

trend_data collect_trends(const std::string& store, const std::vector<std::string>& tests) {
  trend_data data;
  data.store = describe_history_store(store);
  const auto opened = open_history_store(store, store_access::read_saving_state);
  saved_detector detector(*opened, false);
  std::map<std::string, std::size_t> commit_index;
  std::vector<std::string> commits;
  std::string series;
  for (const auto& test : tests) {
    for (const auto& key : opened->series(test, "")) {
      auto commits_of = opened->read_series(key);
      if (commits_of.empty()) continue;
      const auto analysis = detector.analyse(key, std::move(commits_of), change_point_options{});
      series += (series.empty() ? "" : ",\n") + trend_series_json(analysis, commit_index, commits);
      data.titles.push_back(fmt::format("{}  {}{}{}", key.test, key.quantity,
                                        key.unit.empty() ? "" : " (" + key.unit + ")",
                                        key.card.empty() ? "" : "  card " + key.card));
      ++data.series;
      data.points += analysis.commits.size();
    }
  }
  data.detector = detector.save();
  std::string names;
  for (const auto& commit : commits) names += (names.empty() ? "" : ",") + dump_json(commit);
  data.json = fmt::format("{{\"c\":[{}],\"s\":[\n{}]}}", names, series);
  return data;
}

std::string trend_data::summary_line() const {
  std::string line =
      fmt::format("trends: {} series, {} points of {}; change-point segments: {} "
                  "reused, {} tested",
                  series, points, store, detector.segments_reused, detector.segments_tested);
  if (!detector.not_saved.empty())
    line += fmt::format(" (warning: the detector's state was not saved: {})", detector.not_saved);
  return line;
}

void html_trends_section(const report_model& model, text_sink& out) {
  if (!model.trends) return;
  const trend_data& trends = *model.trends;
  out += fmt::format("<h2>Trends</h2>\n<p class=\"note\">{} series, {} points of the history "
                     "store <code>{}</code>: per commit the median (tick) and range (line) of its "
                     "trials; blue: each segment between change points, its median and the "
                     "middle half of its samples (the noise band); red: a change and its delta; "
                     "green: the newest {} commits since the last change (the window "
                     "<code>--baseline history</code> takes on this series). Hover for a commit's "
                     "values.</p>\n",
                     trends.series, trends.points, xml_escape(trends.store),
                     default_history_baseline_commits);
  if (trends.series == 0) {
    out += "<p>The store holds no series of this report's tests.</p>\n";
    return;
  }
  out += trend_style;
  out += "<noscript><p>The trend charts are drawn by the page's script.</p></noscript>\n";
  out += "<div id=\"trend-tip\"></div>\n";
  // The series' order in the JSON is the charts' order: one div per series, by index.
  for (std::size_t index = 0; index < trends.titles.size(); ++index) {
    out += fmt::format("<h3><code>{}</code></h3>\n<div class=\"trend\" data-i=\"{}\"></div>\n",
                       xml_escape(trends.titles[index]), index);
  }
  // A '<' only occurs inside the JSON's strings, where \u003c reads the same and no `</script>`
  // or `<!--` in a test or commit name can end the block early.
  std::string json;
  json.reserve(trends.json.size());
  for (const char c : trends.json) json += c == '<' ? std::string("\\u003c") : std::string(1, c);
  out += "<script type=\"application/json\" id=\"aorta-trends\">" + json + "</script>\n";
  out += trend_script;
}

}  // namespace aorta::detail
