// An example hand for every scoring pattern (RULES.md §4's ids), in the rules' notation, with what the
// calculator needs to score it (POST /api/score's fields); `special` ones are wins the table plays, not
// hands the calculator scores. tests/test_pattern_examples.py checks that each scores its pattern.
export default {
 "ping_hu": {
  "hand": "123m456m789p23s55p +4s",
  "shooter": "S"
 },
 "lesser_ping_hu": {
  "hand": "123m456m789p23s55p +4s /2f",
  "shooter": "S"
 },
 "pong_pong": {
  "hand": "111m555p999s77s22m +7s",
  "shooter": "S"
 },
 "hidden_treasure": {
  "hand": "111m555p999s77s22m +7s",
  "self_drawn": true
 },
 "eighteen_arhats": {
  "hand": "{1111m} {5555p} [9999s] [7777s] 2m +2m",
  "shooter": "S"
 },
 "thirteen_wonders": {
  "hand": "19m19p19sESWNCFP +1m",
  "shooter": "S"
 },
 "nine_gates": {
  "hand": "1112345678999m +5m",
  "self_drawn": true
 },
 "half_flush": {
  "hand": "123m456m789mNNNW +W",
  "shooter": "S"
 },
 "full_flush": {
  "hand": "111m456m789m234m5m +5m",
  "shooter": "S"
 },
 "full_flush_pong_pong": {
  "hand": "111m333m555m777m9m +9m",
  "shooter": "S"
 },
 "full_flush_ping_hu": {
  "hand": "123m456m789m23m55m +4m",
  "shooter": "S"
 },
 "mixed_terminals": {
  "hand": "111m999pWWWNNN1s +1s",
  "shooter": "S"
 },
 "pure_terminals": {
  "hand": "111m999m111p999p1s +1s",
  "shooter": "S"
 },
 "all_honours": {
  "hand": "EEESSSCCCFFFP +P",
  "shooter": "S"
 },
 "dragon_pong": {
  "hand": "234m99p56s [678p] [CCC] +4s",
  "shooter": "S"
 },
 "seat_wind": {
  "hand": "234m99p56s [678p] [SSS] +4s",
  "seat": "S",
  "shooter": "E"
 },
 "prevailing_wind": {
  "hand": "234m99p56s [678p] [SSS] +4s",
  "seat": "W",
  "wind": "S",
  "shooter": "E"
 },
 "small_three_dragons": {
  "hand": "CCCFFFPP123m45m +6m",
  "shooter": "S"
 },
 "big_three_dragons": {
  "hand": "CCCFFFPPP123m5m +5m",
  "shooter": "S"
 },
 "small_four_winds": {
  "hand": "EEESSSWWWNN12m +3m",
  "shooter": "S"
 },
 "big_four_winds": {
  "hand": "EEESSSWWWNNN5m +5m",
  "shooter": "S"
 },
 "animal": {
  "hand": "234m99p56s [678p] [CCC] +4s /1a",
  "shooter": "S"
 },
 "all_animals": {
  "hand": "234m99p56s [678p] [CCC] +4s /1a2a3a4a",
  "shooter": "S"
 },
 "seat_flower": {
  "hand": "234m99p56s [678p] [CCC] +4s /1f",
  "shooter": "S"
 },
 "flower_set": {
  "hand": "234m99p56s [678p] [CCC] +4s /1f2f3f4f",
  "shooter": "S"
 },
 "eight_flowers": {
  "hand": "234m99p56s [678p] [CCC] +4s /1f2f3f4f5f6f7f8f",
  "self_drawn": true
 },
 "heavenly_hand": {
  "hand": "123m456m789p23s55p +4s",
  "heavenly": true
 },
 "earthly_hand": {
  "hand": "123m456m789p23s55p +4s",
  "seat": "S",
  "shooter": "E",
  "earthly": true
 },
 "humanly_hand": {
  "hand": "123m456m789p23s55p +4s",
  "seat": "W",
  "shooter": "S",
  "humanly": true
 },
 "win_on_flower_replacement": {
  "hand": "234m99p56s [678p] [CCC] +4s /1f",
  "replacement": "flower"
 },
 "win_on_kong_replacement": {
  "hand": "234m99p56s [678p] {CCCC} +4s",
  "replacement": "kong"
 },
 "kong_on_kong": {
  "hand": "234m99p56s [5555p] {CCCC} +4s",
  "replacement": "kong-on-kong"
 },
 "robbing_the_kong": {
  "hand": "234m99p56s [678p] [CCC] +4s",
  "shooter": "S",
  "robbed_kong": true
 },
 "last_tile": {
  "hand": "234m99p56s [678p] [CCC] +4s",
  "last_tile": true
 },
 "fully_concealed": {
  "hand": "234m99p56s678pCCC +4s",
  "self_drawn": true,
  "rules": {
   "fully_concealed": "on"
  }
 },
 "pure_green": {
  "hand": "234s234s666sFFF8s +8s",
  "shooter": "S",
  "rules": {
   "pure_green": "on"
  }
 },
 "robbing_the_eighth": {
  "hand": "+8f /1f2f3f4f5f6f7f",
  "special": true
 },
 "declare_three_dragons": {
  "hand": "CCCFFFPPP13m579m",
  "special": true
 },
 "declare_four_winds": {
  "hand": "EEESSSWWWNNN15m",
  "special": true
 }
};
