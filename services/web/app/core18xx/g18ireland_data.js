// @ts-check
// 18Ireland's facts the page shows (names, colours, privates, the train roster), generated from
// shared/games/g18ireland/entities.json by tests/web/entities18xx.py (a test keeps them equal).
// Do not edit by hand.
export const ENTITIES = {
 "corporations": {
  "GSWR": {
   "name": "Great Southern & Western Railway",
   "type": "major",
   "color": "red",
   "text": "white"
  },
  "GNRI": {
   "name": "Great Northern Railway (Ireland)",
   "type": "major",
   "color": "#3DAAD6",
   "text": "white"
  },
  "DSER": {
   "name": "Dublin & South Eastern Railway",
   "type": "major",
   "color": "black",
   "text": "white"
  },
  "MGWR": {
   "name": "Midland Great Western Railway",
   "type": "major",
   "color": "green",
   "text": "white"
  },
  "MRNCC": {
   "name": "Midland Railway North Counties Committee",
   "type": "major",
   "color": "#DB7093",
   "text": "white"
  },
  "WLWR": {
   "name": "Waterford, Limerick & Western Railway",
   "type": "major",
   "color": "yellow",
   "text": "black"
  },
  "CBSCR": {
   "name": "Cork, Bandon & South Coast Railway",
   "type": "major",
   "color": "brown",
   "text": "white"
  },
  "LER": {
   "name": "Londonderry & Enniskillen",
   "type": "minor",
   "color": "#8B4513",
   "text": "white"
  },
  "CBPR": {
   "name": "Cork, Blackrock & Passage Railway",
   "type": "minor",
   "color": "black",
   "text": "white"
  },
  "EBSR": {
   "name": "Enniskillen, Bundoran & Sligo Railway",
   "type": "minor",
   "color": "#F5DEB3",
   "text": "black"
  },
  "SLNCR": {
   "name": "Sligo, Leitrim & Northern Counties Railway",
   "type": "minor",
   "color": "gray",
   "text": "white"
  },
  "DDR": {
   "name": "Dublin & Drogheda Railway",
   "type": "minor",
   "color": "#98FB98",
   "text": "black"
  },
  "DKR": {
   "name": "Dublin & Kingstown Railway",
   "type": "minor",
   "color": "purple",
   "text": "white"
  },
  "GJR": {
   "name": "Grand Junction Railway",
   "type": "minor",
   "color": "white",
   "text": "black"
  },
  "UR": {
   "name": "Ulster Railway",
   "type": "minor",
   "color": "coral",
   "text": "black"
  },
  "DER": {
   "name": "Dundalk & Enniskillen Railway",
   "type": "minor",
   "color": "pink",
   "text": "black"
  },
  "GNWR": {
   "name": "Great Northern & Western Railway",
   "type": "minor",
   "color": "#9370DB",
   "text": "white"
  },
  "WKR": {
   "name": "Waterford & Kilkenny Railway",
   "type": "minor",
   "color": "lightblue",
   "text": "black"
  },
  "CIR": {
   "name": "Central Ireland Railway",
   "type": "minor",
   "color": "#556B2F",
   "text": "white"
  },
  "KJR": {
   "name": "Kilkenny Junction Railway",
   "type": "minor",
   "color": "#DDA0DD",
   "text": "black"
  },
  "WLR": {
   "name": "Waterford & Limerick Railway",
   "type": "minor",
   "color": "red",
   "text": "white"
  }
 },
 "privates": {
  "DAR": {
   "name": "Dalkey Atmospheric Railway",
   "value": 20,
   "revenue": 5,
   "desc": "While a player owns it, no company may build in Wicklow (J14)."
  },
  "DR": {
   "name": "Donegal Railway",
   "value": 30,
   "revenue": 7,
   "desc": "Its corporation may lay two connected yellow narrow-gauge tiles: one in Donegal and one in a hex next to it. Using it closes the company."
  },
  "BoW": {
   "name": "Board of Works",
   "value": 40,
   "revenue": 9,
   "desc": "Its corporation may lay a yellow tile (as one of its tile lays) without paying terrain costs; after two uses the company closes."
  },
  "CDSPC": {
   "name": "City of Dublin Steam Packet Company",
   "value": 45,
   "revenue": 10,
   "desc": "Its corporation may put the +£10 port token on Belfast, Londonderry or Rosslare; the company then closes, the bonus lasts for that corporation to the end."
  },
  "TDR": {
   "name": "Tralee & Dingle Railway",
   "value": 50,
   "revenue": 10,
   "desc": "Its corporation may lay two connected yellow narrow-gauge tiles in the Tralee and Dingle hexes. Using it closes the company."
  },
  "DCR": {
   "name": "Drumglass Colliery Railway",
   "value": 60,
   "revenue": 12,
   "desc": "While a player owns it, no corporation may build in H4. Its corporation may lay a yellow tile in H4 under normal rules, free of terrain cost and without using a tile lay."
  },
  "TASPS": {
   "name": "Trans-Atlantic Steam Packet Station",
   "value": 75,
   "revenue": 15,
   "desc": "Its corporation may put the +£20 token on Galway; the company then closes, the bonus lasts for that corporation to the end."
  },
  "RSSC": {
   "name": "River Shannon Shipping Co",
   "value": 80,
   "revenue": 10,
   "desc": "Its corporation has a river link between Dromod and Limerick: one of its trains ending at either city also earns the other city's value."
  },
  "WDE": {
   "name": "William Dargan Esq.",
   "value": 90,
   "revenue": 10,
   "desc": "Its corporation may make a second tile lay that is an upgrade in each operating round, paying £30 from its treasury."
  },
  "TIM": {
   "name": "The Irish Mail",
   "value": 110,
   "revenue": 20,
   "desc": "Its corporation may place the off-board Irish Mail tile next to Londonderry, Kingstown or Waterford; the company then closes and every corporation may run to the tile."
  },
  "DK": {
   "name": "Dublin & Kingstown Railway",
   "value": 120,
   "revenue": 0,
   "desc": "Whoever buys it becomes director of the DKR minor: par at the highest par price not above half the price paid, the price paid goes into the DKR treasury, and DKR buys a 2H train; the company card is then discarded."
  }
 },
 "trains": [
  {
   "name": "2H",
   "distance": 2,
   "price": 80,
   "rusts_on": "6H",
   "num": 7
  },
  {
   "name": "1H'",
   "distance": 1,
   "price": 40,
   "rusts_on": "8H",
   "num": 7
  },
  {
   "name": "4H",
   "distance": 4,
   "price": 180,
   "rusts_on": "8H",
   "num": 5
  },
  {
   "name": "2H'",
   "distance": 2,
   "price": 90,
   "rusts_on": "10H",
   "num": 5
  },
  {
   "name": "6H",
   "distance": 6,
   "price": 300,
   "rusts_on": "10H",
   "num": 4
  },
  {
   "name": "3H'",
   "distance": 3,
   "price": 150,
   "rusts_on": "D",
   "num": 4
  },
  {
   "name": "8H",
   "distance": 8,
   "price": 440,
   "rusts_on": null,
   "num": 3
  },
  {
   "name": "10H",
   "distance": 10,
   "price": 550,
   "rusts_on": null,
   "num": 2
  },
  {
   "name": "D",
   "distance": 99,
   "price": 770,
   "rusts_on": null,
   "num": null
  }
 ]
};
