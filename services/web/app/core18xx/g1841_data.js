// @ts-check
// 1841's facts the page shows (names, colours, concessions, the train roster), generated from
// shared/games/g1841/entities.json by tests/web/entities18xx.py (a test keeps them equal).
// Do not edit by hand.
export const ENTITIES = {
 "corporations": {
  "SFMA": {
   "name": "Strada Ferrata Maria Antonia",
   "type": "minor",
   "color": "red",
   "text": "white",
   "historical": true
  },
  "SFLP": {
   "name": "Strada Ferrata da Lucca a Pistoia",
   "type": "minor",
   "color": "lightGreen",
   "text": "black",
   "historical": true
  },
  "SSFL": {
   "name": "Società per la Strada Ferrata Leopolda",
   "type": "major",
   "color": "purple",
   "text": "white",
   "historical": true
  },
  "IRSFF": {
   "name": "Imperial Regia Strada Ferrata Ferdinandea",
   "type": "major",
   "color": "orange",
   "text": "white",
   "historical": true
  },
  "SFTG": {
   "name": "Strada Ferrata da Torino a Genova",
   "type": "major",
   "color": "blue",
   "text": "white",
   "historical": true
  },
  "SFTN": {
   "name": "Strada di Ferro da Torino a Novara",
   "type": "major",
   "color": "sandyBrown",
   "text": "black",
   "historical": true
  },
  "SFTC": {
   "name": "Strada di Ferro da Torino a Cuneo",
   "type": "major",
   "color": "yellow",
   "text": "black",
   "historical": true
  },
  "SFLi": {
   "name": "Strade Ferrate Livornesi",
   "type": "major",
   "color": "brown",
   "text": "white",
   "historical": true
  },
  "SB": {
   "name": "Strade Ferrate del Sud dell'Austria",
   "type": "major",
   "color": "gold",
   "text": "black",
   "historical": true
  },
  "SFL": {
   "name": "Strade Ferrate della Lombardia & dell'Italia Centrale",
   "type": "major",
   "color": "lightBlue",
   "text": "black",
   "historical": true
  },
  "AFI": {
   "name": "Azienda Ferroviaria Italica",
   "type": "major",
   "color": "red",
   "text": "white",
   "historical": false
  },
  "ATFA": {
   "name": "Azienda Trasporti Ferroviari Ausonia",
   "type": "major",
   "color": "orange",
   "text": "white",
   "historical": false
  },
  "CFCC": {
   "name": "Compagnia Ferroviaria Conte di Cavour",
   "type": "major",
   "color": "lightGreen",
   "text": "black",
   "historical": false
  },
  "CGTF": {
   "name": "Compagnia Garibaldi per i Trasporti Ferroviari",
   "type": "major",
   "color": "green",
   "text": "white",
   "historical": false
  },
  "CTDA": {
   "name": "Compagnia Trasporti Dante Alighieri",
   "type": "major",
   "color": "lime",
   "text": "black",
   "historical": false
  },
  "CTS": {
   "name": "Compagnia Trasporti Subalpini",
   "type": "major",
   "color": "turquoise",
   "text": "white",
   "historical": false
  },
  "ICSF": {
   "name": "Impresa Centrale Strade Ferrate",
   "type": "major",
   "color": "navy",
   "text": "white",
   "historical": false
  },
  "IFAI": {
   "name": "Impresa Ferroviaria Alta Italia",
   "type": "major",
   "color": "violet",
   "text": "white",
   "historical": false
  },
  "ILTF": {
   "name": "Impresa Latina Trasporti su Ferro",
   "type": "major",
   "color": "pink",
   "text": "black",
   "historical": false
  },
  "RATF": {
   "name": "Regia Azienda Trasporti Ferroviari",
   "type": "major",
   "color": "lavender",
   "text": "black",
   "historical": false
  },
  "RSFS": {
   "name": "Reale Società Ferroviaria Sabauda",
   "type": "major",
   "color": "bisque",
   "text": "black",
   "historical": false
  },
  "CTLP": {
   "name": "Compagnia Trasporti La Patria",
   "type": "minor",
   "color": "white",
   "text": "black",
   "historical": false
  },
  "FTP": {
   "name": "Ferrovie Trans Padane",
   "type": "minor",
   "color": "gray",
   "text": "white",
   "historical": false
  },
  "SLDV": {
   "name": "Società Leonardo Da Vinci",
   "type": "minor",
   "color": "black",
   "text": "white",
   "historical": false
  },
  "Holding": {
   "name": "Tuscan Merge Holding",
   "type": "major",
   "color": "black",
   "text": "white",
   "historical": true
  },
  "SFV": {
   "name": "Strade di Ferro Venete",
   "type": "minor",
   "color": "gold",
   "text": "black",
   "historical": true
  }
 },
 "privates": {
  "Bayard": {
   "name": "1 Società della Strada di Ferro da Napoli a Nocera e Castellamunare (Bayard)",
   "value": 50,
   "revenue": 20,
   "desc": "Income only: pays its owner L.20 at the end of each stock round; closes with the first 4-train."
  },
  "SFLP": {
   "name": "2 Società della Strada Ferrata da Lucca a Pistoia",
   "value": 50,
   "revenue": 0,
   "desc": "Concession to found the historical minor SFLP before phase 4; its home: Lucca (P12)."
  },
  "SFTC": {
   "name": "3 Strada di Ferro da Torino a Cuneo",
   "value": 50,
   "revenue": 0,
   "desc": "Concession to found the historical corporation SFTC before phase 4; its home: Cuneo (M3)."
  },
  "SFMA": {
   "name": "4 Società per la Strada Ferrata Maria Antonia",
   "value": 50,
   "revenue": 0,
   "desc": "Concession to found the historical minor SFMA before phase 4; its home: Firenze (R14)."
  },
  "SFTN": {
   "name": "5 Strada di Ferro da Torino a Novara",
   "value": 50,
   "revenue": 0,
   "desc": "Concession to found the historical major SFTN before phase 4; its home: Torino (H4)."
  },
  "SSFL": {
   "name": "6 Società per la Strada Ferrata Leopolda",
   "value": 50,
   "revenue": 0,
   "desc": "Concession to found the historical major SSFL before phase 4; its home: Pisa (Q11)."
  },
  "SFTG": {
   "name": "7 Strada Ferrata da Torino a Genova",
   "value": 50,
   "revenue": 0,
   "desc": "Concession to found the historical major SFTG before phase 4; its homes: Torino (H4) and Alessandria (J6)."
  },
  "IRSFF": {
   "name": "8 Imperial Regia Strada Ferrata Ferdinandea",
   "value": 50,
   "revenue": 0,
   "desc": "Concession to found the historical major IRSFF before phase 4; its homes: Milano (F8) and Venezia (F16)."
  }
 },
 "trains": [
  {
   "name": "2",
   "distance": [
    {
     "nodes": [
      "city",
      "offboard",
      "pass"
     ],
     "pay": 2,
     "visit": 2
    },
    {
     "nodes": [
      "town"
     ],
     "pay": 99,
     "visit": 99
    }
   ],
   "price": 100,
   "rusts_on": "4",
   "num": 8
  },
  {
   "name": "3",
   "distance": [
    {
     "nodes": [
      "city",
      "offboard",
      "pass"
     ],
     "pay": 3,
     "visit": 3
    },
    {
     "nodes": [
      "town"
     ],
     "pay": 99,
     "visit": 99
    }
   ],
   "price": 200,
   "rusts_on": "5",
   "num": 6
  },
  {
   "name": "4",
   "distance": [
    {
     "nodes": [
      "city",
      "offboard",
      "pass"
     ],
     "pay": 4,
     "visit": 4
    },
    {
     "nodes": [
      "town"
     ],
     "pay": 99,
     "visit": 99
    }
   ],
   "price": 350,
   "rusts_on": "7",
   "num": 4
  },
  {
   "name": "5",
   "distance": [
    {
     "nodes": [
      "city",
      "offboard",
      "pass"
     ],
     "pay": 5,
     "visit": 5
    },
    {
     "nodes": [
      "town"
     ],
     "pay": 99,
     "visit": 99
    }
   ],
   "price": 550,
   "rusts_on": "8",
   "num": 3
  },
  {
   "name": "6",
   "distance": [
    {
     "nodes": [
      "city",
      "offboard",
      "pass"
     ],
     "pay": 6,
     "visit": 6
    },
    {
     "nodes": [
      "town"
     ],
     "pay": 99,
     "visit": 99
    }
   ],
   "price": 800,
   "rusts_on": null,
   "num": 2
  },
  {
   "name": "7",
   "distance": [
    {
     "nodes": [
      "city",
      "offboard",
      "pass"
     ],
     "pay": 7,
     "visit": 7
    },
    {
     "nodes": [
      "town"
     ],
     "pay": 99,
     "visit": 99
    }
   ],
   "price": 1100,
   "rusts_on": null,
   "num": 2
  },
  {
   "name": "8",
   "distance": [
    {
     "nodes": [
      "city",
      "offboard"
     ],
     "pay": 8,
     "visit": 8
    },
    {
     "nodes": [
      "town",
      "pass"
     ],
     "pay": 99,
     "visit": 99
    }
   ],
   "price": 1450,
   "rusts_on": null,
   "num": 7
  }
 ],
 "trains_by_variant": {
  "lite": [
   {
    "name": "2",
    "distance": [
     {
      "nodes": [
       "city",
       "offboard",
       "pass"
      ],
      "pay": 2,
      "visit": 2
     },
     {
      "nodes": [
       "town"
      ],
      "pay": 99,
      "visit": 99
     }
    ],
    "price": 100,
    "rusts_on": "4",
    "num": 6
   },
   {
    "name": "3",
    "distance": [
     {
      "nodes": [
       "city",
       "offboard",
       "pass"
      ],
      "pay": 3,
      "visit": 3
     },
     {
      "nodes": [
       "town"
      ],
      "pay": 99,
      "visit": 99
     }
    ],
    "price": 200,
    "rusts_on": "5",
    "num": 5
   },
   {
    "name": "4",
    "distance": [
     {
      "nodes": [
       "city",
       "offboard",
       "pass"
      ],
      "pay": 4,
      "visit": 4
     },
     {
      "nodes": [
       "town"
      ],
      "pay": 99,
      "visit": 99
     }
    ],
    "price": 350,
    "rusts_on": "7",
    "num": 3
   },
   {
    "name": "5",
    "distance": [
     {
      "nodes": [
       "city",
       "offboard",
       "pass"
      ],
      "pay": 5,
      "visit": 5
     },
     {
      "nodes": [
       "town"
      ],
      "pay": 99,
      "visit": 99
     }
    ],
    "price": 550,
    "rusts_on": "8",
    "num": 2
   },
   {
    "name": "6",
    "distance": [
     {
      "nodes": [
       "city",
       "offboard",
       "pass"
      ],
      "pay": 6,
      "visit": 6
     },
     {
      "nodes": [
       "town"
      ],
      "pay": 99,
      "visit": 99
     }
    ],
    "price": 800,
    "rusts_on": null,
    "num": 2
   },
   {
    "name": "7",
    "distance": [
     {
      "nodes": [
       "city",
       "offboard",
       "pass"
      ],
      "pay": 7,
      "visit": 7
     },
     {
      "nodes": [
       "town"
      ],
      "pay": 99,
      "visit": 99
     }
    ],
    "price": 1100,
    "rusts_on": null,
    "num": 2
   },
   {
    "name": "8",
    "distance": [
     {
      "nodes": [
       "city",
       "offboard"
      ],
      "pay": 8,
      "visit": 8
     },
     {
      "nodes": [
       "town",
       "pass"
      ],
      "pay": 99,
      "visit": 99
     }
    ],
    "price": 1450,
    "rusts_on": null,
    "num": 7
   }
  ],
  "lite+version_1": [
   {
    "name": "2",
    "distance": [
     {
      "nodes": [
       "city",
       "offboard",
       "pass"
      ],
      "pay": 2,
      "visit": 2
     },
     {
      "nodes": [
       "town"
      ],
      "pay": 99,
      "visit": 99
     }
    ],
    "price": 100,
    "rusts_on": "4",
    "num": 6
   },
   {
    "name": "3",
    "distance": [
     {
      "nodes": [
       "city",
       "offboard",
       "pass"
      ],
      "pay": 3,
      "visit": 3
     },
     {
      "nodes": [
       "town"
      ],
      "pay": 99,
      "visit": 99
     }
    ],
    "price": 200,
    "rusts_on": "5",
    "num": 5
   },
   {
    "name": "4",
    "distance": [
     {
      "nodes": [
       "city",
       "offboard",
       "pass"
      ],
      "pay": 4,
      "visit": 4
     },
     {
      "nodes": [
       "town"
      ],
      "pay": 99,
      "visit": 99
     }
    ],
    "price": 350,
    "rusts_on": "7",
    "num": 3
   },
   {
    "name": "5",
    "distance": [
     {
      "nodes": [
       "city",
       "offboard",
       "pass"
      ],
      "pay": 5,
      "visit": 5
     },
     {
      "nodes": [
       "town"
      ],
      "pay": 99,
      "visit": 99
     }
    ],
    "price": 550,
    "rusts_on": "8",
    "num": 2
   },
   {
    "name": "6",
    "distance": [
     {
      "nodes": [
       "city",
       "offboard",
       "pass"
      ],
      "pay": 6,
      "visit": 6
     },
     {
      "nodes": [
       "town"
      ],
      "pay": 99,
      "visit": 99
     }
    ],
    "price": 800,
    "rusts_on": null,
    "num": 2
   },
   {
    "name": "7",
    "distance": [
     {
      "nodes": [
       "city",
       "offboard",
       "pass"
      ],
      "pay": 7,
      "visit": 7
     },
     {
      "nodes": [
       "town"
      ],
      "pay": 99,
      "visit": 99
     }
    ],
    "price": 1100,
    "rusts_on": null,
    "num": 2
   },
   {
    "name": "8",
    "distance": [
     {
      "nodes": [
       "city",
       "offboard"
      ],
      "pay": 8,
      "visit": 8
     },
     {
      "nodes": [
       "town",
       "pass"
      ],
      "pay": 99,
      "visit": 99
     }
    ],
    "price": 1450,
    "rusts_on": null,
    "num": 7
   }
  ]
 }
};
