// The table page's "How to play" link: the rules page of this table's game (/t/CODE/rules
// redirects there). Kept apart from table.js so the link works whatever the table is doing.
const code = location.pathname.split("/")[2];
const link = document.getElementById("rules-link");
if (link && code) link.href = `/t/${encodeURIComponent(code)}/rules`;
