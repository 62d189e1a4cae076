// The tutorial's first hand, played through the rules core by tools/make_tutorial.py: do not
// edit by hand (tests/test_tutorial.py checks it is current).
export default {
 "seat": "E",
 "steps": [
  {
   "do": "discard N",
   "legal": [
    "discard 1s",
    "discard 2m",
    "discard 3m",
    "discard 4m",
    "discard 5s",
    "discard 6s",
    "discard 7p",
    "discard 8p",
    "discard 9m",
    "discard 9p",
    "discard C",
    "discard N"
   ],
   "before": {
    "seats": [
     {
      "concealed": [
       "2m",
       "3m",
       "4m",
       "9m",
       "7p",
       "8p",
       "9p",
       "9p",
       "1s",
       "5s",
       "6s",
       "N",
       "C",
       "C"
      ],
      "melds": [],
      "bonus": [
       "1f"
      ],
      "discards": []
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": []
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": []
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": []
     }
    ],
    "wall": 79,
    "drawn": "9p"
   }
  },
  {
   "do": "chow 678p",
   "legal": [
    "chow 678p",
    "pass"
   ],
   "before": {
    "seats": [
     {
      "concealed": [
       "2m",
       "3m",
       "4m",
       "9m",
       "7p",
       "8p",
       "9p",
       "9p",
       "1s",
       "5s",
       "6s",
       "C",
       "C"
      ],
      "melds": [],
      "bonus": [
       "1f"
      ],
      "discards": [
       "N"
      ]
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": [
       "3p"
      ]
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": [
       "7s"
      ]
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": [
       "6p"
      ]
     }
    ],
    "wall": 76,
    "discard": {
     "seat": "N",
     "tile": "6p"
    }
   }
  },
  {
   "do": "discard 9m",
   "legal": [
    "discard 1s",
    "discard 2m",
    "discard 3m",
    "discard 4m",
    "discard 5s",
    "discard 6s",
    "discard 9m",
    "discard 9p",
    "discard C"
   ],
   "before": {
    "seats": [
     {
      "concealed": [
       "2m",
       "3m",
       "4m",
       "9m",
       "9p",
       "9p",
       "1s",
       "5s",
       "6s",
       "C",
       "C"
      ],
      "melds": [
       {
        "kind": "chow",
        "tiles": [
         "6p",
         "7p",
         "8p"
        ]
       }
      ],
      "bonus": [
       "1f"
      ],
      "discards": [
       "N"
      ]
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": [
       "3p"
      ]
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": [
       "7s"
      ]
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": []
     }
    ],
    "wall": 76
   }
  },
  {
   "do": "pong",
   "legal": [
    "pass",
    "pong"
   ],
   "before": {
    "seats": [
     {
      "concealed": [
       "2m",
       "3m",
       "4m",
       "9p",
       "9p",
       "1s",
       "5s",
       "6s",
       "C",
       "C"
      ],
      "melds": [
       {
        "kind": "chow",
        "tiles": [
         "6p",
         "7p",
         "8p"
        ]
       }
      ],
      "bonus": [
       "1f"
      ],
      "discards": [
       "N",
       "9m"
      ]
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": [
       "3p",
       "C"
      ]
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": [
       "7s"
      ]
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": []
     }
    ],
    "wall": 75,
    "discard": {
     "seat": "S",
     "tile": "C"
    }
   }
  },
  {
   "do": "discard 1s",
   "legal": [
    "discard 1s",
    "discard 2m",
    "discard 3m",
    "discard 4m",
    "discard 5s",
    "discard 6s",
    "discard 9p"
   ],
   "before": {
    "seats": [
     {
      "concealed": [
       "2m",
       "3m",
       "4m",
       "9p",
       "9p",
       "1s",
       "5s",
       "6s"
      ],
      "melds": [
       {
        "kind": "chow",
        "tiles": [
         "6p",
         "7p",
         "8p"
        ]
       },
       {
        "kind": "pong",
        "tiles": [
         "C",
         "C",
         "C"
        ]
       }
      ],
      "bonus": [
       "1f"
      ],
      "discards": [
       "N",
       "9m"
      ]
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": [
       "3p"
      ]
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": [
       "7s"
      ]
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": []
     }
    ],
    "wall": 75
   }
  },
  {
   "do": "win",
   "legal": [
    "pass",
    "win"
   ],
   "before": {
    "seats": [
     {
      "concealed": [
       "2m",
       "3m",
       "4m",
       "9p",
       "9p",
       "5s",
       "6s"
      ],
      "melds": [
       {
        "kind": "chow",
        "tiles": [
         "6p",
         "7p",
         "8p"
        ]
       },
       {
        "kind": "pong",
        "tiles": [
         "C",
         "C",
         "C"
        ]
       }
      ],
      "bonus": [
       "1f"
      ],
      "discards": [
       "N",
       "9m",
       "1s"
      ]
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": [
       "3p",
       "4s"
      ]
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": [
       "7s"
      ]
     },
     {
      "concealed": 13,
      "melds": [],
      "bonus": [],
      "discards": []
     }
    ],
    "wall": 74,
    "discard": {
     "seat": "S",
     "tile": "4s"
    }
   }
  }
 ],
 "end": {
  "seats": [
   {
    "concealed": [
     "2m",
     "3m",
     "4m",
     "9p",
     "9p",
     "4s",
     "5s",
     "6s"
    ],
    "melds": [
     {
      "kind": "chow",
      "tiles": [
       "6p",
       "7p",
       "8p"
      ]
     },
     {
      "kind": "pong",
      "tiles": [
       "C",
       "C",
       "C"
      ]
     }
    ],
    "bonus": [
     "1f"
    ],
    "discards": [
     "N",
     "9m",
     "1s"
    ]
   },
   {
    "concealed": 13,
    "melds": [],
    "bonus": [],
    "discards": [
     "3p"
    ]
   },
   {
    "concealed": 13,
    "melds": [],
    "bonus": [],
    "discards": [
     "7s"
    ]
   },
   {
    "concealed": 13,
    "melds": [],
    "bonus": [],
    "discards": []
   }
  ],
  "wall": 74
 },
 "result": {
  "hand": "234m99p56s [678p] [CCC] +4s /1f",
  "tai": 2,
  "patterns": [
   {
    "id": "dragon_pong",
    "tai": 1
   },
   {
    "id": "seat_flower",
    "tai": 1
   }
  ],
  "payments": {
   "E": 8,
   "S": -4,
   "W": -2,
   "N": -2
  },
  "shooter": "S"
 }
};
