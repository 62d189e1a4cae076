// A table's house rules in words, in the page's language ("a 1-tai hand pays 10 per loser, instant
// payments of 10"), never the rule set's raw keys: each changed rule by its own sentence where it has
// one (rulewords.KEY), else by its name and value (optname.KEY: choice.VALUE, on/off).
import { choiceName, optionName } from "./api.js";
import { has, t } from "./i18n.js";

function valueText(value) {
  if (typeof value === "boolean") return t(value ? "common.on" : "common.off");
  return choiceName(value);
}

/** One changed rule in words. */
export function ruleInWords(key, value) {
  const v = valueText(value);
  return has(`rulewords.${key}`) ? t(`rulewords.${key}`, { v }) : `${optionName(key)}: ${v}`;
}

/** The changed rules ({key: value}) as one line of words. */
export function houseRulesInWords(changed) {
  return Object.entries(changed || {}).map(([k, v]) => ruleInWords(k, v)).join(t("rulewords.sep"));
}
