"""The game-design layer of the reconstructed board: cities, their colours and goods, and the
major lines. Names and places are real; colours, goods counts and major-line points are
reconstructed (no public source lists them) — see `map_notes.md` for the reasoning.

Cities are listed in placement priority: when two would fall on the same or neighbouring
hexes, the one listed first keeps its true hex and the later one moves by one hex.
"""

from __future__ import annotations

from typing import NamedTuple


class CitySpec(NamedTuple):
    name: str
    lat: float
    lon: float
    color: str
    region: str


# Red: the six great towns of the 1851 census (London, Liverpool, Manchester, Birmingham,
# Leeds, Bristol). Grey: small or remote towns and ports that accept no deliveries.
# Blue, yellow, purple and black: ten each, spread so that every region has every colour.
CITIES: tuple[CitySpec, ...] = (
    CitySpec("London", 51.51, -0.13, "red", "South East"),
    CitySpec("Liverpool", 53.41, -2.98, "red", "North West"),
    CitySpec("Manchester", 53.48, -2.24, "red", "North West"),
    CitySpec("Birmingham", 52.48, -1.90, "red", "Midlands"),
    CitySpec("Leeds", 53.80, -1.55, "red", "Yorkshire"),
    CitySpec("Bristol", 51.45, -2.59, "red", "West"),
    CitySpec("Newcastle", 54.97, -1.61, "black", "North East"),
    CitySpec("Sheffield", 53.38, -1.47, "black", "Yorkshire"),
    CitySpec("Hull", 53.74, -0.33, "blue", "Yorkshire"),
    CitySpec("York", 53.96, -1.08, "yellow", "Yorkshire"),
    CitySpec("Nottingham", 52.95, -1.15, "black", "Midlands"),
    CitySpec("Cardiff", 51.48, -3.18, "black", "Wales"),
    CitySpec("Swansea", 51.62, -3.94, "blue", "Wales"),
    CitySpec("Plymouth", 50.37, -4.14, "black", "West"),
    CitySpec("Southampton", 50.90, -1.40, "yellow", "South"),
    CitySpec("Norwich", 52.63, 1.30, "black", "East"),
    CitySpec("Carlisle", 54.89, -2.93, "yellow", "North East"),
    CitySpec("Derby", 52.92, -1.48, "blue", "Midlands"),
    CitySpec("Leicester", 52.64, -1.13, "yellow", "Midlands"),
    CitySpec("Preston", 53.76, -2.70, "purple", "North West"),
    CitySpec("Chester", 53.19, -2.89, "blue", "North West"),
    CitySpec("Stoke", 53.00, -2.18, "yellow", "Midlands"),
    CitySpec("Coventry", 52.41, -1.51, "purple", "Midlands"),
    CitySpec("Exeter", 50.72, -3.53, "blue", "West"),
    CitySpec("Oxford", 51.75, -1.26, "blue", "South East"),
    CitySpec("Reading", 51.45, -0.97, "black", "South East"),
    CitySpec("Brighton", 50.82, -0.14, "purple", "South East"),
    CitySpec("Dover", 51.13, 1.31, "blue", "South East"),
    CitySpec("Portsmouth", 50.80, -1.09, "black", "South"),
    CitySpec("Gloucester", 51.86, -2.24, "purple", "West"),
    CitySpec("Bath", 51.38, -2.36, "yellow", "West"),
    CitySpec("Cambridge", 52.21, 0.12, "yellow", "East"),
    CitySpec("Ipswich", 52.06, 1.16, "purple", "East"),
    CitySpec("Peterborough", 52.57, -0.24, "blue", "East"),
    CitySpec("Lincoln", 53.23, -0.54, "purple", "Midlands"),
    CitySpec("Middlesbrough", 54.57, -1.23, "blue", "North East"),
    CitySpec("Durham", 54.78, -1.57, "yellow", "North East"),
    CitySpec("Darlington", 54.52, -1.55, "purple", "North East"),
    CitySpec("Bradford", 53.79, -1.75, "purple", "Yorkshire"),
    CitySpec("Wolverhampton", 52.59, -2.13, "black", "Midlands"),
    CitySpec("Shrewsbury", 52.71, -2.75, "purple", "Midlands"),
    CitySpec("Hereford", 52.06, -2.72, "yellow", "West"),
    CitySpec("Lancaster", 54.05, -2.80, "blue", "North West"),
    CitySpec("Whitehaven", 54.55, -3.59, "black", "North West"),
    CitySpec("Merthyr Tydfil", 51.75, -3.38, "yellow", "Wales"),
    CitySpec("Aberystwyth", 52.41, -4.08, "purple", "Wales"),
    CitySpec("Holyhead", 53.31, -4.63, "grey", "Wales"),
    CitySpec("Carmarthen", 51.86, -4.31, "grey", "Wales"),
    CitySpec("Milford Haven", 51.71, -5.03, "grey", "Wales"),
    CitySpec("Penzance", 50.12, -5.54, "grey", "West"),
    CitySpec("Barnstaple", 51.08, -4.06, "grey", "West"),
    CitySpec("Salisbury", 51.07, -1.79, "grey", "South"),
    CitySpec("Swindon", 51.56, -1.78, "grey", "West"),
    CitySpec("Worcester", 52.19, -2.22, "grey", "Midlands"),
    CitySpec("Northampton", 52.24, -0.90, "grey", "Midlands"),
    CitySpec("Kendal", 54.33, -2.75, "grey", "North West"),
    CitySpec("Scarborough", 54.28, -0.40, "grey", "Yorkshire"),
    CitySpec("Berwick", 55.77, -2.01, "grey", "North East"),
    CitySpec("Great Yarmouth", 52.61, 1.73, "grey", "East"),
    CitySpec("King's Lynn", 52.75, 0.40, "grey", "East"),
)

# Goods cubes drawn into a city at set-up, by colour (reconstructed; see map_notes.md).
GOODS_BY_COLOR = {"red": 3, "blue": 2, "yellow": 2, "purple": 2, "black": 2, "grey": 1}


class MajorLineSpec(NamedTuple):
    id: str
    name: str
    cities: tuple[str, ...]  # from, via..., to
    history: str


# The historic trunk lines of 1830-1850 whose ends are cities on this board. The points
# (vp) are computed by build_map.py from the shortest buildable hex route (see map_notes.md).
MAJOR_LINES: tuple[MajorLineSpec, ...] = (
    MajorLineSpec("liverpool-manchester", "Liverpool & Manchester", ("Liverpool", "Manchester"),
                  "Liverpool and Manchester Railway, 1830"),
    MajorLineSpec("london-birmingham", "London & Birmingham", ("London", "Birmingham"),
                  "London and Birmingham Railway, 1838"),
    MajorLineSpec("grand-junction", "Grand Junction", ("Birmingham", "Liverpool"),
                  "Grand Junction Railway, Birmingham to the Liverpool & Manchester, 1837"),
    MajorLineSpec("great-western", "Great Western", ("London", "Reading", "Bristol"),
                  "Great Western Railway, London Paddington to Bristol, 1841"),
    MajorLineSpec("london-brighton", "London & Brighton", ("London", "Brighton"),
                  "London and Brighton Railway, 1841"),
    MajorLineSpec("london-dover", "South Eastern", ("London", "Dover"),
                  "South Eastern Railway, London to Dover, 1844"),
    MajorLineSpec("london-southampton", "London & Southampton", ("London", "Southampton"),
                  "London and Southampton Railway, 1840"),
    MajorLineSpec("eastern-counties", "Eastern Counties", ("London", "Cambridge", "Norwich"),
                  "Eastern Counties / Norfolk Railway, London to Norwich via Cambridge, 1845"),
    MajorLineSpec("great-northern", "Great Northern", ("London", "Peterborough", "York"),
                  "Great Northern Railway, London to York via Peterborough, 1850-52"),
    MajorLineSpec("york-newcastle-berwick", "York, Newcastle & Berwick",
                  ("York", "Newcastle", "Berwick"),
                  "York, Newcastle and Berwick Railway, 1847-50"),
    MajorLineSpec("newcastle-carlisle", "Newcastle & Carlisle", ("Newcastle", "Carlisle"),
                  "Newcastle and Carlisle Railway, 1838"),
    MajorLineSpec("lancaster-carlisle", "Lancaster & Carlisle", ("Lancaster", "Carlisle"),
                  "Lancaster and Carlisle Railway over Shap, 1846"),
    MajorLineSpec("manchester-leeds", "Manchester & Leeds", ("Manchester", "Leeds"),
                  "Manchester and Leeds Railway under the Pennines, 1841"),
    MajorLineSpec("north-midland", "North Midland", ("Derby", "Sheffield", "Leeds"),
                  "North Midland Railway, Derby to Leeds, 1840"),
    MajorLineSpec("chester-holyhead", "Chester & Holyhead", ("Chester", "Holyhead"),
                  "Chester and Holyhead Railway with the Britannia Bridge, 1850"),
    MajorLineSpec("south-wales", "South Wales", ("Gloucester", "Cardiff", "Swansea"),
                  "South Wales Railway, Gloucester to Swansea, 1850-52"),
    MajorLineSpec("west-of-england", "Bristol to Plymouth", ("Bristol", "Exeter", "Plymouth"),
                  "Bristol and Exeter (1844) and South Devon (1849) Railways"),
    MajorLineSpec("cornwall", "Cornwall", ("Plymouth", "Penzance"),
                  "Cornwall Railway (1859) and West Cornwall Railway"),
)
